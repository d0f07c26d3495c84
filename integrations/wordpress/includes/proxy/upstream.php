<?php
/**
 * The Marketing API side: a GraphQL call through WordPress's HTTP API with the key in `x-api-key`,
 * never following a redirect, and every failure mapped to the proxy's own codes with the contract's
 * patterns, the key scrubbed from any message.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/** Upstream answers over 8 MiB are refused rather than buffered. */
const LOYALTY_WIDGETS_MAX_ANSWER_BYTES = 8388608;

/**
 * Removes the key from a text meant for the outside, and bounds its length.
 *
 * @param string $text   The text.
 * @param string $secret The key.
 */
function loyalty_widgets_scrub( string $text, string $secret ): string {
	if ( '' !== $secret ) {
		$text = str_replace( $secret, '[redacted]', $text );
	}
	return strlen( $text ) > 500 ? substr( $text, 0, 500 ) . '…' : $text;
}

/**
 * One exchange with the Marketing API.
 *
 * @param array  $config     The proxy's settings.
 * @param string $document   The GraphQL document.
 * @param array  $variables  Its variables.
 * @param int    $timeout_ms How long to wait for the answer.
 * @return array `{ status, body, retry_after }`.
 * @throws Loyalty_Widgets_Proxy_Error When there is no answer.
 */
function loyalty_widgets_upstream_exchange( array $config, string $document, array $variables, int $timeout_ms ): array {
	$response = wp_remote_post(
		$config['url'],
		array(
			'timeout'             => max( 0.001, $timeout_ms / 1000 ),
			'redirection'         => 0,
			'limit_response_size' => LOYALTY_WIDGETS_MAX_ANSWER_BYTES,
			'headers'             => array(
				'content-type' => 'application/json',
				'accept'       => 'application/json',
				'x-api-key'    => $config['key'],
			),
			'body'                => loyalty_widgets_json(
				array(
					'query'     => $document,
					'variables' => (object) $variables,
				)
			),
		)
	);
	if ( is_wp_error( $response ) ) {
		$detail = $response->get_error_message();
		if ( preg_match( '/timed out|timeout/i', $detail ) ) {
			throw new Loyalty_Widgets_Proxy_Error( 504, 'upstream_timeout', 'The Marketing API did not answer in time.', array(), true );
		}
		// Only a connection that was never opened proves the operation did not run.
		$never = (bool) preg_match( '/Connection refused|getaddrinfo|php_network_getaddresses|Name or service not known|No route to host/i', $detail );
		throw new Loyalty_Widgets_Proxy_Error( 502, 'upstream_unavailable', 'The Marketing API could not be reached.', array(), ! $never );
	}
	$retry_after = wp_remote_retrieve_header( $response, 'retry-after' );
	return array(
		'status'      => (int) wp_remote_retrieve_response_code( $response ),
		'body'        => (string) wp_remote_retrieve_body( $response ),
		'retry_after' => is_string( $retry_after ) ? $retry_after : '',
	);
}

/**
 * A built-in operation's one field: `{ value, partial }`. Partial data (errors with a result) is a
 * result; errors without one are classified. A query is tried once more after a network failure.
 *
 * @param array  $config     The proxy's settings.
 * @param string $document   The GraphQL document.
 * @param array  $variables  Its variables.
 * @param string $field      The operation's field.
 * @param bool   $retry      Whether a network failure may be retried (queries).
 * @param int    $timeout_ms How long to wait.
 * @param callable|null $exchange  How the call is made; default through WordPress's HTTP API.
 * @throws Loyalty_Widgets_Proxy_Error On any failure.
 */
function loyalty_widgets_fetch_field( array $config, string $document, array $variables, string $field, bool $retry, int $timeout_ms, ?callable $exchange = null ): array {
	$exchange = $exchange ?? 'loyalty_widgets_upstream_exchange';
	try {
		$reply = $exchange( $config, $document, $variables, $timeout_ms );
	} catch ( Loyalty_Widgets_Proxy_Error $error ) {
		if ( ! $retry || 'upstream_unavailable' !== $error->error_code ) {
			throw $error;
		}
		$reply = $exchange( $config, $document, $variables, $timeout_ms );
	}
	$status  = $reply['status'];
	$refused = in_array( $status, array( 401, 403, 429 ), true );
	$answer  = json_decode( $reply['body'], true );
	if ( ! is_array( $answer ) || array_is_list( $answer ) && array() !== $answer ) {
		if ( $refused ) {
			throw loyalty_widgets_classify_failure( $status, array(), $reply['retry_after'], false, $config['key'] );
		}
		$message = null === $answer ? "The Marketing API answered with HTTP {$status} and no JSON." : 'The Marketing API answered with an unexpected body.';
		throw new Loyalty_Widgets_Proxy_Error( 502, 'upstream_error', $message, array(), true );
	}
	$errors  = isset( $answer['errors'] ) && is_array( $answer['errors'] ) ? array_values( array_filter( $answer['errors'], 'is_array' ) ) : array();
	$success = $status >= 200 && $status <= 299;
	$data    = isset( $answer['data'] ) && is_array( $answer['data'] ) ? $answer['data'] : null;
	$value   = null !== $data && array_key_exists( $field, $data ) ? $data[ $field ] : null;
	if ( $errors ) {
		if ( $success && null !== $value ) {
			return array(
				'value'   => $value,
				'partial' => true,
			);
		}
		throw loyalty_widgets_classify_failure( $status, $errors, $reply['retry_after'], $status < 500, $config['key'] );
	}
	if ( ! $success ) {
		throw loyalty_widgets_classify_failure( $status, array(), $reply['retry_after'], false, $config['key'] );
	}
	if ( null === $data || ! array_key_exists( $field, $data ) ) {
		throw new Loyalty_Widgets_Proxy_Error( 502, 'upstream_error', "The Marketing API answered without \"{$field}\".", array(), true );
	}
	if ( '' !== $config['key'] && str_contains( $reply['body'], $config['key'] ) ) {
		throw new Loyalty_Widgets_Proxy_Error( 502, 'upstream_error', 'The Marketing API answered with something the proxy will not pass on.', array(), true );
	}
	return array(
		'value'   => $value,
		'partial' => false,
	);
}

/**
 * Which kind of failure an upstream GraphQL error is, by the contract's patterns.
 *
 * @param array $error The error.
 */
function loyalty_widgets_error_kind( array $error ): string {
	$patterns = loyalty_widgets_contract()['upstreamErrors']['patterns'];
	$labels   = array();
	foreach ( array( $error['errorType'] ?? null, $error['extensions']['errorType'] ?? null, $error['extensions']['code'] ?? null ) as $label ) {
		if ( is_string( $label ) ) {
			$labels[] = $label;
		}
	}
	$message = isset( $error['message'] ) && is_string( $error['message'] ) ? $error['message'] : '';
	$any     = static function ( string $name ) use ( $labels, $patterns ): bool {
		foreach ( $labels as $label ) {
			if ( preg_match( $patterns[ $name ], $label ) ) {
				return true;
			}
		}
		return false;
	};
	$says    = static fn( string $name ): bool => (bool) preg_match( $patterns[ $name ], $message );
	if ( $any( 'keyRefusedType' ) ) {
		return 'keyRefused';
	}
	if ( $any( 'throttledType' ) ) {
		return 'throttled';
	}
	if ( $any( 'schemaType' ) || $says( 'schemaMessage' ) ) {
		return 'schemaMismatch';
	}
	if ( $says( 'pageTokenMessage' ) ) {
		return 'pageTokenRefused';
	}
	if ( $any( 'noCouponType' ) || $says( 'noCouponMessage' ) ) {
		return 'noCouponObjective';
	}
	if ( $any( 'notFoundType' ) || $says( 'notFoundMessage' ) ) {
		return 'notFound';
	}
	if ( $any( 'badInputType' ) ) {
		return 'badUserInput';
	}
	return 'other';
}

/**
 * The proxy's error for a failed upstream answer.
 *
 * @param int    $status      The upstream's HTTP status.
 * @param array  $errors      Its GraphQL errors.
 * @param string $retry_after Its Retry-After header.
 * @param bool   $nothing_ran The answer shows that nothing ran.
 * @param string $key         The key, scrubbed from messages.
 */
function loyalty_widgets_classify_failure( int $status, array $errors, string $retry_after, bool $nothing_ran, string $key ): Loyalty_Widgets_Proxy_Error {
	$kinds = array_map( 'loyalty_widgets_error_kind', $errors );
	$kind  = 'other';
	foreach ( array( 'keyRefused', 'throttled', 'schemaMismatch', 'pageTokenRefused', 'notFound', 'noCouponObjective', 'badUserInput' ) as $candidate ) {
		if ( in_array( $candidate, $kinds, true ) ) {
			$kind = $candidate;
			break;
		}
	}
	if ( 401 === $status || 403 === $status ) {
		$kind = 'keyRefused';
	} elseif ( 429 === $status ) {
		$kind = 'throttled';
	}
	$index   = array_search( $kind, $kinds, true );
	$first   = false === $index ? ( $errors[0] ?? array() ) : $errors[ $index ];
	$said    = isset( $first['message'] ) && is_string( $first['message'] ) ? loyalty_widgets_scrub( $first['message'], $key ) : '';
	$ran     = ! ( in_array( $status, array( 401, 403, 429 ), true ) || $nothing_ran );
	$error   = static fn( int $code, string $name, string $message, array $headers = array() ) => new Loyalty_Widgets_Proxy_Error( $code, $name, $message, $headers, $ran );
	$seconds = loyalty_widgets_contract()['upstreamErrors']['retryAfterSeconds'];
	switch ( $kind ) {
		case 'keyRefused':
			return $error( 502, 'upstream_key_refused', "The Marketing API refused this site's API key: the proxy's configuration (MARKETING_API_KEY) must be fixed; trying again will not help." );
		case 'throttled':
			$after = is_numeric( $retry_after ) ? min( $seconds['max'], max( $seconds['min'], (int) ceil( (float) $retry_after ) ) ) : $seconds['default'];
			return $error( 503, 'upstream_throttled', 'The Marketing API is busy; try again shortly.', array( 'retry-after' => (string) $after ) );
		case 'schemaMismatch':
			return $error( 502, 'upstream_schema_mismatch', "The Marketing API does not accept the proxy's query (its schema differs): " . ( '' !== $said ? $said : 'validation failed' ) );
		case 'pageTokenRefused':
			return $error( 400, 'invalid_cursor', 'This nextToken has expired; start again from the first page.' );
		case 'notFound':
			return $error( 404, 'not_found', '' !== $said ? $said : 'Not found.' );
		case 'noCouponObjective':
			return $error( 422, 'no_coupon_objective', '' !== $said ? $said : 'This campaign has no coupon to give.' );
		case 'badUserInput':
			return $error( 400, 'bad_user_input', '' !== $said ? $said : 'The Marketing API refused the input.' );
		default:
			return $error( 502, 'upstream_error', '' !== $said ? $said : "The Marketing API reported an error (HTTP {$status})." );
	}
}

/**
 * A coupon mint under an Idempotency-Key, whose caller is answered after `$answer_ms` while the call
 * goes on for up to `$timeout_ms`: the coupon a slow Marketing API mints is then recorded for the key,
 * for the caller's retry. WordPress's HTTP API gives no control back before its timeout, so this one
 * call is made on a socket of its own (HTTP/1.0, so the answer is never chunked), watched with
 * stream_select; every other call goes through the HTTP API.
 *
 * @param array    $config     The proxy's settings.
 * @param string   $document   The GraphQL document.
 * @param array    $variables  Its variables.
 * @param int      $timeout_ms How long the call may take in all.
 * @param int      $answer_ms  When the caller is answered if the call has not ended.
 * @param callable $answer     Answers the caller (once), the call going on.
 * @return array `{ status, body, retry_after }`.
 * @throws Loyalty_Widgets_Proxy_Error When there is no answer.
 */
function loyalty_widgets_upstream_exchange_watched( array $config, string $document, array $variables, int $timeout_ms, int $answer_ms, callable $answer ): array {
	$started = loyalty_widgets_now_ms();
	$parts   = wp_parse_url( $config['url'] );
	$secure  = 'https' === strtolower( $parts['scheme'] ?? '' );
	$host    = $parts['host'] ?? '';
	$port    = (int) ( $parts['port'] ?? ( $secure ? 443 : 80 ) );
	$path    = ( $parts['path'] ?? '/' ) . ( isset( $parts['query'] ) ? '?' . $parts['query'] : '' );
	$context = stream_context_create(
		array(
			'ssl' => array(
				'verify_peer'      => true,
				'verify_peer_name' => true,
				'peer_name'        => $host,
				'cafile'           => ABSPATH . WPINC . '/certificates/ca-bundle.crt',
			),
		)
	);
	$errno   = 0;
	$errstr  = '';
	$address = ( $secure ? 'ssl://' : 'tcp://' ) . ( str_contains( $host, ':' ) ? "[{$host}]" : $host ) . ':' . $port;
	// phpcs:ignore WordPress.WP.AlternativeFunctions -- see above: the HTTP API cannot answer the caller before its timeout.
	$socket = @stream_socket_client( $address, $errno, $errstr, max( 0.001, $timeout_ms / 1000 ), STREAM_CLIENT_CONNECT, $context );
	if ( false === $socket ) {
		// The connection was never opened: nothing can have run upstream.
		throw new Loyalty_Widgets_Proxy_Error( 502, 'upstream_unavailable', 'The Marketing API could not be reached.', array(), false );
	}
	$body    = loyalty_widgets_json(
		array(
			'query'     => $document,
			'variables' => (object) $variables,
		)
	);
	$request = "POST {$path} HTTP/1.0\r\nHost: {$host}" . ( isset( $parts['port'] ) ? ":{$port}" : '' ) . "\r\nContent-Type: application/json\r\nAccept: application/json\r\nx-api-key: {$config['key']}\r\nContent-Length: " . strlen( $body ) . "\r\nConnection: close\r\n\r\n{$body}";
	fwrite( $socket, $request ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_fwrite
	stream_set_blocking( $socket, false );
	$received = '';
	$answered = false;
	for ( ;; ) {
		$chunk = fread( $socket, 65536 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_fread
		if ( is_string( $chunk ) && '' !== $chunk ) {
			$received .= $chunk;
			if ( strlen( $received ) > LOYALTY_WIDGETS_MAX_ANSWER_BYTES ) {
				fclose( $socket ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_fclose
				throw new Loyalty_Widgets_Proxy_Error( 502, 'upstream_error', 'The Marketing API answered with more data than the proxy accepts.', array(), true );
			}
			continue;
		}
		if ( feof( $socket ) ) {
			break;
		}
		$now = loyalty_widgets_now_ms();
		if ( ! $answered && $now - $started >= $answer_ms ) {
			$answered = true;
			$answer();
		}
		$until = $answered ? $started + $timeout_ms : min( $started + $timeout_ms, $started + $answer_ms );
		if ( $now >= $started + $timeout_ms ) {
			fclose( $socket ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_fclose
			throw new Loyalty_Widgets_Proxy_Error( 504, 'upstream_timeout', 'The Marketing API did not answer in time.', array(), true );
		}
		$read   = array( $socket );
		$write  = null;
		$except = null;
		$wait   = max( 1, $until - $now );
		stream_select( $read, $write, $except, intdiv( $wait, 1000 ), ( $wait % 1000 ) * 1000 );
	}
	fclose( $socket ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_fclose
	$split = strpos( $received, "\r\n\r\n" );
	if ( false === $split || ! preg_match( '~^HTTP/\d(?:\.\d)? (\d{3})~', $received, $status ) ) {
		throw new Loyalty_Widgets_Proxy_Error( 502, 'upstream_error', 'The Marketing API answered with an unexpected body.', array(), true );
	}
	$retry_after = preg_match( '~\r\nretry-after:\s*([^\r]*)~i', substr( $received, 0, $split ), $header ) ? trim( $header[1] ) : '';
	return array(
		'status'      => (int) $status[1],
		'body'        => substr( $received, $split + 4 ),
		'retry_after' => $retry_after,
	);
}
