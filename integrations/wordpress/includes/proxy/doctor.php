<?php
/**
 * The doctor's checks (`loyalty-proxy doctor`), for WordPress: the Marketing API reachable and taking
 * the key, each operation fitting its schema, Connect reachable, the sign-in's redirect URI
 * registered. Site Health runs them (Tools → Site Health), and the settings page names a wrong key or
 * address on save. No finding ever holds the key.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/**
 * One GraphQL request straight to the Marketing API: `{ status, json }`, or `{ error }` when nothing answered.
 *
 * @param array  $config The proxy's settings.
 * @param string $query  The document.
 */
function loyalty_widgets_doctor_request( array $config, string $query ): array {
	try {
		$reply = loyalty_widgets_upstream_exchange( $config, $query, array(), $config['timeout_ms'] );
	} catch ( Loyalty_Widgets_Proxy_Error $error ) {
		return array( 'error' => 'upstream_timeout' === $error->error_code ? "no answer within {$config['timeout_ms']} ms" : 'the connection failed' );
	}
	return array(
		'status' => $reply['status'],
		'json'   => json_decode( $reply['body'], true ),
	);
}

/**
 * Is the Marketing API there, and does it take the key? `{ ok, subject, message }`: `subject` is
 * `settings`, `upstream` or `key`, the message says what to fix.
 *
 * @param array $config The proxy's settings.
 */
function loyalty_widgets_probe_upstream( array $config ): array {
	if ( '' === $config['url'] || '' === $config['key'] ) {
		return array(
			'ok'      => false,
			'subject' => 'settings',
			'message' => __( 'The Marketing API\'s address and key are not set: widgets cannot show campaigns.', 'loyalty-widgets' ),
		);
	}
	$reply = loyalty_widgets_doctor_request( $config, 'query LoyaltyProxyProbe { __typename }' );
	if ( isset( $reply['error'] ) ) {
		return array(
			'ok'      => false,
			'subject' => 'upstream',
			/* translators: 1: the address, 2: what happened. */
			'message' => sprintf( __( 'The Marketing API cannot be reached at %1$s (%2$s).', 'loyalty-widgets' ), $config['url'], $reply['error'] ),
		);
	}
	$status = $reply['status'];
	$json   = $reply['json'];
	if ( 401 === $status || 403 === $status ) {
		$said = is_array( $json ) && is_string( $json['errors'][0]['message'] ?? null ) ? loyalty_widgets_scrub( $json['errors'][0]['message'], $config['key'] ) : "HTTP {$status}";
		return array(
			'ok'      => false,
			'subject' => 'key',
			/* translators: 1: HTTP status, 2: the API's words. */
			'message' => sprintf( __( 'The Marketing API refused the key (HTTP %1$d, %2$s). Check the key and that it has not expired.', 'loyalty-widgets' ), $status, $said ),
		);
	}
	if ( 429 === $status ) {
		return array(
			'ok'      => false,
			'subject' => 'upstream',
			'message' => __( 'The Marketing API is throttling this key (HTTP 429): nothing could be checked. Try again in a minute.', 'loyalty-widgets' ),
		);
	}
	if ( ! is_array( $json ) || ! array_key_exists( 'data', $json ) && ! array_key_exists( 'errors', $json ) ) {
		return array(
			'ok'      => false,
			'subject' => 'upstream',
			/* translators: %d: HTTP status. */
			'message' => sprintf( __( 'The address answers HTTP %d without GraphQL JSON: is it the Marketing API\'s GraphQL endpoint?', 'loyalty-widgets' ), $status ),
		);
	}
	return array(
		'ok'      => true,
		'subject' => 'key',
		'message' => __( 'The Marketing API answers GraphQL and accepts the key.', 'loyalty-widgets' ),
	);
}

/**
 * Each operation against the Marketing API: the fields and arguments the plugin's documents use,
 * read from the schema (introspection), and harmless sample reads through those very documents.
 * `requestCoupon` is never run (it would create a coupon). A list of `{ ok, message }`.
 *
 * @param array $config The proxy's settings.
 */
function loyalty_widgets_check_operations( array $config ): array {
	$findings = array();
	$add      = static function ( bool $ok, string $message ) use ( &$findings ) {
		$findings[] = compact( 'ok', 'message' );
	};
	$type     = '{ kind name ofType { kind name ofType { kind name } } }';
	$schema   = loyalty_widgets_doctor_request( $config, "query LoyaltyProxySchema { __schema { queryType { fields { name args { name type {$type} } type {$type} } } mutationType { fields { name args { name } } } } }" );
	$fields   = array();
	foreach ( array( 'queryType', 'mutationType' ) as $root ) {
		foreach ( $schema['json']['data']['__schema'][ $root ]['fields'] ?? array() as $field ) {
			$fields[ $root ][ $field['name'] ] = $field;
		}
	}
	if ( ! $fields ) {
		$add( true, __( 'Introspection is unavailable: fields are checked by the sample reads only, and requestCoupon cannot be checked.', 'loyalty-widgets' ) );
	}
	foreach ( loyalty_widgets_contract()['operations'] as $name => $operation ) {
		if ( ! $fields ) {
			break;
		}
		$root  = 'mutation' === $operation['kind'] ? 'mutationType' : 'queryType';
		$field = $fields[ $root ][ $name ] ?? null;
		if ( null === $field ) {
			/* translators: 1: Query or Mutation, 2: the field. */
			$add( false, sprintf( __( '%1$s.%2$s does not exist: the widgets that use it cannot work.', 'loyalty-widgets' ), 'mutationType' === $root ? 'Mutation' : 'Query', $name ) );
			continue;
		}
		$args    = array_column( $field['args'], 'name' );
		$missing = array_diff( 'requestCoupon' === $name ? array( 'campaignId' ) : ( 'campaign' === $name ? array( 'id' ) : array( 'limit', 'nextToken' ) ), $args );
		if ( $missing ) {
			/* translators: 1: the operation, 2: the arguments. */
			$add( false, sprintf( __( '%1$s takes no %2$s.', 'loyalty-widgets' ), $name, implode( ', ', $missing ) ) );
		} else {
			/* translators: %s: the operation. */
			$add( true, sprintf( __( '%s fits the schema.', 'loyalty-widgets' ), $name ) );
		}
	}
	// The query field of an index on the campaigns' business account, found by shape as the Node proxy finds it.
	$connection = $fields['queryType']['campaigns']['type'] ?? null;
	foreach ( $fields['queryType'] ?? array() as $name => $field ) {
		$required = array_filter( $field['args'], static fn( $arg ) => 'NON_NULL' === ( $arg['type']['kind'] ?? '' ) );
		$args     = array_column( $field['args'], 'name' );
		if ( 'campaigns' !== $name && null !== $connection && $field['type'] == $connection && array( 'businessAccountId' ) === array_column( $required, 'name' ) && in_array( 'limit', $args, true ) && in_array( 'nextToken', $args, true ) ) { // phpcs:ignore Universal.Operators.StrictComparisons.LooseEqual -- the same type description.
			/* translators: %s: the index query field. */
			$add( true, sprintf( __( 'The schema has the index query %s(businessAccountId); this plugin reads one business account\'s campaigns with a filtered scan of campaigns.', 'loyalty-widgets' ), $name ) );
		}
	}
	$page = null;
	foreach ( array(
		'campaigns'        => array( 'limit' => 1 ),
		'businessAccounts' => array( 'limit' => 1 ),
	) as $name => $variables ) {
		try {
			$answer = loyalty_widgets_fetch_field( $config, loyalty_widgets_contract()['operations'][ $name ]['documents']['plain'], $variables, $name, false, $config['timeout_ms'] );
			$page   = 'campaigns' === $name ? $answer['value'] : $page;
			/* translators: %s: the operation. */
			$add( true, sprintf( __( 'A sample read of %s answers.', 'loyalty-widgets' ), $name ) );
		} catch ( Loyalty_Widgets_Proxy_Error $error ) {
			/* translators: 1: the operation, 2: the error's code, 3: its message. */
			$add( false, sprintf( __( 'A sample read of %1$s failed (%2$s: %3$s).', 'loyalty-widgets' ), $name, $error->error_code, $error->getMessage() ) );
		}
	}
	$id = $page['items'][0]['id'] ?? null;
	if ( is_string( $id ) ) {
		try {
			loyalty_widgets_fetch_field( $config, loyalty_widgets_contract()['operations']['campaign']['documents']['plain'], array( 'id' => $id ), 'campaign', false, $config['timeout_ms'] );
			$add( true, __( 'A sample read of campaign answers.', 'loyalty-widgets' ) );
		} catch ( Loyalty_Widgets_Proxy_Error $error ) {
			/* translators: 1: the error's code, 2: its message. */
			$add( false, sprintf( __( 'A sample read of campaign failed (%1$s: %2$s).', 'loyalty-widgets' ), $error->error_code, $error->getMessage() ) );
		}
	}
	return $findings;
}

/**
 * Connect's discovery and keys readable, its issuer the authority: `{ ok, message }`.
 *
 * @param array $config The proxy's settings.
 */
function loyalty_widgets_check_connect( array $config ): array {
	if ( '' === $config['connect_url'] ) {
		return array(
			'ok'      => false,
			'message' => __( 'No Connect authority is set: shoppers cannot sign in, and members-only coupons cannot be checked.', 'loyalty-widgets' ),
		);
	}
	delete_transient( 'loyalty_widgets_connect_' . md5( untrailingslashit( $config['connect_url'] ) ) );
	try {
		$provider = loyalty_widgets_connect_provider( $config );
	} catch ( Loyalty_Widgets_Proxy_Error $error ) {
		return array(
			'ok'      => false,
			'message' => $error->getMessage(),
		);
	}
	return array(
		'ok'      => true,
		/* translators: %d: how many keys. */
		'message' => sprintf( _n( 'Connect answers, with %d signing key.', 'Connect answers, with %d signing keys.', count( $provider['keys'] ), 'loyalty-widgets' ), count( $provider['keys'] ) ),
	);
}

/**
 * Whether Connect takes this site's callback as the app's redirect URI: its authorization endpoint
 * is asked for a sign-in page, which Connect refuses for a redirect URI the app has not registered.
 *
 * @param array $config The proxy's settings.
 */
function loyalty_widgets_check_redirect_uri( array $config ): array {
	$callback = loyalty_widgets_callback_url();
	if ( '' === $config['connect_url'] || '' === $config['client_id'] ) {
		return array(
			'ok'      => false,
			'message' => __( 'Set the Connect authority and the app id first.', 'loyalty-widgets' ),
		);
	}
	$discovery = loyalty_widgets_connect_json( untrailingslashit( $config['connect_url'] ) . '/.well-known/openid-configuration', $config['timeout_ms'] );
	$endpoint  = is_string( $discovery['authorization_endpoint'] ?? null ) ? $discovery['authorization_endpoint'] : null;
	if ( null === $endpoint ) {
		return array(
			'ok'      => false,
			'message' => __( 'Connect\'s discovery names no authorization endpoint.', 'loyalty-widgets' ),
		);
	}
	$url      = add_query_arg(
		array(
			'client_id'     => rawurlencode( $config['client_id'] ),
			'redirect_uri'  => rawurlencode( $callback ),
			'response_type' => rawurlencode( 'id_token token' ),
			'scope'         => rawurlencode( 'openid profile' ),
			'nonce'         => wp_generate_password( 16, false ),
			'state'         => 'site-health',
		),
		$endpoint
	);
	$response = wp_remote_get(
		$url,
		array(
			'timeout'     => $config['timeout_ms'] / 1000,
			'redirection' => 0,
		)
	);
	$status   = is_wp_error( $response ) ? 0 : (int) wp_remote_retrieve_response_code( $response );
	$location = is_wp_error( $response ) ? '' : (string) wp_remote_retrieve_header( $response, 'location' );
	// A sign-in page, or a redirect back to the callback (a session already there), means the pair is registered.
	$ok = 200 === $status || ( $status >= 300 && $status < 400 && ! str_starts_with( $location, $callback . '#error' ) && ! str_contains( $location, 'error=' ) );
	return array(
		'ok'      => $ok,
		'message' => $ok
			/* translators: %s: the redirect URI. */
			? sprintf( __( 'Connect takes %s as this app\'s redirect URI.', 'loyalty-widgets' ), $callback )
			/* translators: 1: the redirect URI, 2: HTTP status. */
			: sprintf( __( 'Connect refuses %1$s as this app\'s redirect URI (HTTP %2$d): register it for your app at Connect.', 'loyalty-widgets' ), $callback, $status ),
	);
}

/**
 * A Site Health result.
 *
 * @param string $test        The test's name.
 * @param string $label       What it says.
 * @param bool   $ok          Passed.
 * @param string $description The details (HTML-safe).
 */
function loyalty_widgets_health_result( string $test, string $label, bool $ok, string $description ): array {
	return array(
		'label'       => $label,
		'status'      => $ok ? 'good' : 'critical',
		'badge'       => array(
			'label' => __( 'Loyalty widgets', 'loyalty-widgets' ),
			'color' => $ok ? 'blue' : 'red',
		),
		'description' => $description,
		'actions'     => $ok ? '' : sprintf( '<p><a href="%s">%s</a></p>', esc_url( admin_url( 'options-general.php?page=loyalty-widgets' ) ), esc_html__( 'Loyalty widgets settings', 'loyalty-widgets' ) ),
		'test'        => $test,
	);
}

add_filter(
	'site_status_tests',
	static function ( array $tests ): array {
		$tests['direct']['loyalty_widgets_marketing']    = array(
			'label' => __( 'Loyalty widgets: the Marketing API', 'loyalty-widgets' ),
			'test'  => static function () {
				$probe = loyalty_widgets_probe_upstream( loyalty_widgets_proxy_config() );
				return loyalty_widgets_health_result( 'loyalty_widgets_marketing', $probe['ok'] ? __( 'The Marketing API is reachable and accepts the key', 'loyalty-widgets' ) : __( 'The Marketing API cannot be used', 'loyalty-widgets' ), $probe['ok'], '<p>' . esc_html( $probe['message'] ) . '</p>' );
			},
		);
		$tests['direct']['loyalty_widgets_operations']   = array(
			'label' => __( 'Loyalty widgets: operations', 'loyalty-widgets' ),
			'test'  => static function () {
				$config = loyalty_widgets_proxy_config();
				$probe  = loyalty_widgets_probe_upstream( $config );
				$found  = $probe['ok'] ? loyalty_widgets_check_operations( $config ) : array( $probe );
				$ok     = ! in_array( false, array_column( $found, 'ok' ), true );
				$items  = implode( '', array_map( static fn( $finding ) => '<li>' . ( $finding['ok'] ? '' : '<strong>' ) . esc_html( $finding['message'] ) . ( $finding['ok'] ? '' : '</strong>' ) . '</li>', $found ) );
				return loyalty_widgets_health_result( 'loyalty_widgets_operations', $ok ? __( 'Each Marketing operation fits the Marketing API', 'loyalty-widgets' ) : __( 'Some Marketing operations cannot work', 'loyalty-widgets' ), $ok, "<ul>{$items}</ul>" );
			},
		);
		$tests['direct']['loyalty_widgets_connect']      = array(
			'label' => __( 'Loyalty widgets: Connect', 'loyalty-widgets' ),
			'test'  => static function () {
				$check = loyalty_widgets_check_connect( loyalty_widgets_proxy_config() );
				return loyalty_widgets_health_result( 'loyalty_widgets_connect', $check['ok'] ? __( 'Connect is reachable', 'loyalty-widgets' ) : __( 'Connect cannot be used', 'loyalty-widgets' ), $check['ok'], '<p>' . esc_html( $check['message'] ) . '</p>' );
			},
		);
		$tests['direct']['loyalty_widgets_redirect_uri'] = array(
			'label' => __( 'Loyalty widgets: sign-in redirect URI', 'loyalty-widgets' ),
			'test'  => static function () {
				$check = loyalty_widgets_check_redirect_uri( loyalty_widgets_proxy_config() );
				return loyalty_widgets_health_result( 'loyalty_widgets_redirect_uri', $check['ok'] ? __( 'The sign-in redirect URI is registered at Connect', 'loyalty-widgets' ) : __( 'The sign-in redirect URI is not registered at Connect', 'loyalty-widgets' ), $check['ok'], '<p>' . esc_html( $check['message'] ) . '</p>' );
			},
		);
		return $tests;
	}
);
