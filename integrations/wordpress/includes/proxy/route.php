<?php
/**
 * The Marketing proxy as a REST route of the site, `loyalty-widgets/v1/marketing`, speaking the Node
 * proxy's wire contract (src/proxy/README.md, "Protocol"): `POST` `{ "operation", "variables" }`,
 * the same answers, error codes and statuses. The route answers before WordPress's REST server reads
 * the body its own way, so a body that is no JSON gets the proxy's 400 rather than WordPress's, and
 * every answer is the proxy's JSON as it is. Every answer carries `Loyalty-Proxy: 1`.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

const LOYALTY_WIDGETS_ROUTE_NAMESPACE = 'loyalty-widgets/v1';
const LOYALTY_WIDGETS_ROUTE           = '/marketing';

add_action(
	'rest_api_init',
	static function () {
		register_rest_route(
			LOYALTY_WIDGETS_ROUTE_NAMESPACE,
			LOYALTY_WIDGETS_ROUTE,
			array(
				'methods'             => array( 'GET', 'POST', 'OPTIONS' ),
				'callback'            => 'loyalty_widgets_proxy_response',
				// Shoppers call it without a WordPress account: the proxy's own checks (origin, limits, sign-in) guard it.
				'permission_callback' => '__return_true',
			)
		);
	}
);

/**
 * Whether a REST request is for the proxy's route.
 *
 * @param WP_REST_Request $request The request.
 */
function loyalty_widgets_is_proxy_request( WP_REST_Request $request ): bool {
	return untrailingslashit( $request->get_route() ) === '/' . LOYALTY_WIDGETS_ROUTE_NAMESPACE . LOYALTY_WIDGETS_ROUTE;
}

// Answered before WordPress's checks of the body and its OPTIONS answer.
add_filter(
	'rest_pre_dispatch',
	static function ( $result, $server, $request ) {
		if ( ! $request instanceof WP_REST_Request || ! loyalty_widgets_is_proxy_request( $request ) ) {
			return $result;
		}
		// WordPress's CORS headers would let any origin read the answer.
		remove_filter( 'rest_pre_serve_request', 'rest_send_cors_headers' );
		return loyalty_widgets_proxy_response( $request );
	},
	0,
	3
);

// The body as the proxy wrote it, and only the proxy's CORS headers: WordPress's own (any origin, with credentials) are not sent.
add_filter(
	'rest_pre_serve_request',
	static function ( $served, $result, $request ) {
		// An answer WordPress wrapped (`?_envelope`) is WordPress's JSON to write.
		if ( $served || ! $request instanceof WP_REST_Request || ! loyalty_widgets_is_proxy_request( $request ) || ! $result instanceof WP_REST_Response || ! is_string( $result->get_data() ) ) {
			return $served;
		}
		foreach ( array( 'Access-Control-Allow-Headers', 'Access-Control-Allow-Credentials', 'Access-Control-Allow-Methods', 'Link' ) as $name ) {
			header_remove( $name );
		}
		foreach ( $result->get_headers() as $name => $value ) {
			header( "{$name}: {$value}" );
		}
		echo $result->get_data(); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- JSON built by the proxy, served as application/json.
		return true;
	},
	0,
	3
);
/**
 * The proxy's answer as a REST response whose data is the JSON body.
 *
 * @param WP_REST_Request $request The request.
 */
function loyalty_widgets_proxy_response( WP_REST_Request $request ): WP_REST_Response {
	list( $status, $body, $headers ) = loyalty_widgets_proxy_answer( $request );
	$response                        = new WP_REST_Response( $body, $status );
	$response->set_headers( $headers + loyalty_widgets_answer_headers() );
	return $response;
}

/** What every answer of the proxy carries. */
function loyalty_widgets_answer_headers(): array {
	return array(
		'Content-Type'                  => 'application/json; charset=utf-8',
		'X-Content-Type-Options'        => 'nosniff',
		// The widgets tell the proxy's answers from a page's by this header, also across origins: the
		// contract's exposed headers name it.
		'Loyalty-Proxy'                 => '1',
		'Access-Control-Expose-Headers' => loyalty_widgets_contract_or_null()['cors']['exposedResponseHeaders'] ?? 'loyalty-proxy',
	);
}

/** The contract, or null when it cannot be read (the answer is then a 500). */
function loyalty_widgets_contract_or_null(): ?array {
	try {
		return loyalty_widgets_contract();
	} catch ( Loyalty_Widgets_Proxy_Error $error ) {
		return null;
	}
}

/**
 * Header names in the case HTTP writes them (WordPress sends them as given).
 *
 * @param array $headers Lower-case names and values.
 */
function loyalty_widgets_header_case( array $headers ): array {
	$cased = array();
	foreach ( $headers as $name => $value ) {
		$cased[ implode( '-', array_map( 'ucfirst', explode( '-', $name ) ) ) ] = $value;
	}
	return $cased;
}

/**
 * `[ status, body, headers ]` for a request to the route.
 *
 * @param WP_REST_Request $request The request.
 */
function loyalty_widgets_proxy_answer( WP_REST_Request $request ): array {
	$cors = array();
	try {
		$config = loyalty_widgets_proxy_config();
		$cors   = loyalty_widgets_cors_headers( $request, $config['origins'] );
		loyalty_widgets_request_cors( $cors );
		if ( 'OPTIONS' === $request->get_method() ) {
			return loyalty_widgets_preflight( $cors );
		}
		$method = $request->get_method();
		if ( 'POST' !== $method && 'GET' !== $method ) {
			throw new Loyalty_Widgets_Proxy_Error( 405, 'method_not_allowed', 'Use POST with a JSON body, or GET for a read.', array( 'allow' => loyalty_widgets_contract()['cors']['allowedMethods'] ) );
		}
		if ( '' === $config['url'] || '' === $config['key'] ) {
			throw new Loyalty_Widgets_Proxy_Error( 503, 'not_configured', 'The Marketing proxy is not set up yet: the site\'s administrator enters the Marketing API\'s address and key under Settings → Loyalty widgets.' );
		}
		list( $name, $variables ) = 'GET' === $method ? loyalty_widgets_read_query_string( loyalty_widgets_query_string() ) : loyalty_widgets_read_call( $request );
		loyalty_widgets_ensure_table();
		if ( wp_rand( 1, 100 ) === 1 ) {
			loyalty_widgets_purge_expired();
		}
		$address   = loyalty_widgets_rate_limit_address( isset( $_SERVER['REMOTE_ADDR'] ) ? sanitize_text_field( wp_unslash( $_SERVER['REMOTE_ADDR'] ) ) : '' );
		$operation = loyalty_widgets_contract()['operations'][ $name ];
		list( $status, $body, $headers ) = 'query' === $operation['kind']
			? loyalty_widgets_answer_query( $config, $name, $variables, $address )
			: loyalty_widgets_answer_claim( $config, $request, $name, $variables, $address );
		if ( 'GET' === $method && 200 === $status ) {
			list( $status, $body, $headers ) = loyalty_widgets_validated( $request, $body, $headers );
		}
		return array( $status, $body, loyalty_widgets_header_case( $headers + $cors ) );
	} catch ( Loyalty_Widgets_Proxy_Error $error ) {
		return array( $error->status, $error->body(), loyalty_widgets_header_case( array( 'cache-control' => 'no-store' ) + $error->headers + $cors ) );
	} catch ( Throwable $error ) {
		// The log says what failed, never the key; the browser only that it failed.
		error_log( 'loyalty-widgets proxy: ' . loyalty_widgets_scrub( $error->getMessage(), loyalty_widgets_marketing_key() ) ); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_error_log
		return array( 500, loyalty_widgets_error_body( 'internal_error', 'The Marketing proxy failed to handle the request.' ), loyalty_widgets_header_case( array( 'cache-control' => 'no-store' ) + $cors ) );
	}
}

/**
 * The CORS headers of the request being answered, kept for an answer sent before the request ends.
 *
 * @param array|null $cors Sets them.
 */
function loyalty_widgets_request_cors( ?array $cors = null ): array {
	static $current = array();
	if ( null !== $cors ) {
		$current = $cors;
	}
	return $current;
}

/**
 * Answers the caller now with this error, the request's work going on after (a keyed mint still
 * waited for). The answer's length is sent, so the client has all of it without waiting for the end.
 *
 * @param Loyalty_Widgets_Proxy_Error $error The answer.
 */
function loyalty_widgets_answer_now( Loyalty_Widgets_Proxy_Error $error ): void {
	$body    = $error->body();
	$headers = loyalty_widgets_header_case( array( 'cache-control' => 'no-store' ) + $error->headers + loyalty_widgets_request_cors() );
	while ( ob_get_level() > 0 ) {
		ob_end_clean();
	}
	status_header( $error->status );
	foreach ( $headers + loyalty_widgets_answer_headers() as $name => $value ) {
		header( "{$name}: {$value}" );
	}
	header( 'Content-Length: ' . strlen( $body ) );
	header( 'Connection: close' );
	echo $body; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- the proxy's JSON.
	flush();
	if ( function_exists( 'fastcgi_finish_request' ) ) {
		fastcgi_finish_request();
	} elseif ( function_exists( 'litespeed_finish_request' ) ) {
		litespeed_finish_request();
	}
}

/**
 * What rate limits count an address as: IPv4 as it is, IPv6 by its /64, an IPv4-mapped one as IPv4,
 * anything else in one shared bucket.
 *
 * @param string $address The client's address.
 */
function loyalty_widgets_rate_limit_address( string $address ): string {
	$text = strtolower( trim( $address, " []\t" ) );
	$zone = strpos( $text, '%' );
	if ( false !== $zone ) {
		$text = substr( $text, 0, $zone );
	}
	$packed = filter_var( $text, FILTER_VALIDATE_IP ) ? inet_pton( $text ) : false;
	if ( false === $packed ) {
		return 'unparsable';
	}
	if ( 4 === strlen( $packed ) ) {
		return inet_ntop( $packed );
	}
	if ( str_starts_with( $packed, str_repeat( "\0", 10 ) . "\xff\xff" ) ) {
		return inet_ntop( substr( $packed, 12 ) );
	}
	$groups = array_map( 'dechex', array_values( unpack( 'n4', substr( $packed, 0, 8 ) ) ) );
	return implode( ':', $groups ) . '::/64';
}

/**
 * A query's answer: from the cache, or loaded with each upstream call counted against the address.
 *
 * @param array  $config    The proxy's settings.
 * @param string $name      The operation.
 * @param array  $variables Its variables.
 * @param string $address   The client's address.
 */
function loyalty_widgets_answer_query( array $config, string $name, array $variables, string $address ): array {
	$contract  = loyalty_widgets_contract();
	$operation = $contract['operations'][ $name ];
	// A forged cursor is refused first: it costs no cache read and no count.
	if ( $operation['paged'] && isset( $variables['nextToken'] ) ) {
		loyalty_widgets_page_start( $config['key'], $name, $variables );
	}
	$key   = $name . ':' . loyalty_widgets_canonical_variables( $variables );
	$entry = loyalty_widgets_cache_get( $key );
	$now   = loyalty_widgets_now_ms();
	$load  = static function () use ( $config, $name, $variables, $address, $operation, $key ): string {
		$sent = 0;
		$send = static function ( array $read ) use ( $config, $name, $address, $operation, &$sent ): array {
			// The first call was counted as the miss; each further call filling the page counts too.
			if ( $sent++ > 0 ) {
				loyalty_widgets_count( "query:{$address}", $config['rate_limits']['queryMisses'], 'queries' );
			}
			$filter   = $operation['filter'] ?? null;
			$document = null !== $filter && isset( $read[ $filter ] ) ? $operation['documents']['filtered'] : $operation['documents']['plain'];
			return loyalty_widgets_fetch_field( $config, $document, $read, $name, true, $config['timeout_ms'] );
		};
		$body = loyalty_widgets_built_in_query( $config, $name, $variables, $send );
		loyalty_widgets_cache_set( $key, $body );
		return $body;
	};
	$cached = array(
		'cache-control' => loyalty_widgets_cache_control(),
	);
	if ( null !== $entry && $now < $entry['fresh_until'] ) {
		return array( 200, $entry['body'], $cached + array( 'x-cache' => 'HIT' ) );
	}
	if ( null !== $entry ) {
		// Served stale at once; one worker refreshes it after its answer has gone out.
		if ( loyalty_widgets_cache_take_refresh( $key ) ) {
			add_action(
				'shutdown',
				static function () use ( $load ) {
					if ( function_exists( 'fastcgi_finish_request' ) ) {
						fastcgi_finish_request();
					}
					try {
						$load();
					} catch ( Loyalty_Widgets_Proxy_Error $error ) {
						// The stale answer stays until it expires.
						unset( $error );
					}
				}
			);
		}
		return array( 200, $entry['body'], $cached + array( 'x-cache' => 'STALE' ) );
	}
	loyalty_widgets_count( "query:{$address}", $config['rate_limits']['queryMisses'], 'queries' );
	return array( 200, $load(), $cached + array( 'x-cache' => 'MISS' ) );
}
