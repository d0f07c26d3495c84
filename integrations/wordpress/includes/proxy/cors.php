<?php
/**
 * The proxy's origin rules: the page's origin compared as a browser writes it, the CORS headers for a
 * listed origin, and the preflight's answer, with the methods and headers the contract names.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/**
 * An origin as a browser writes it (scheme, host, port only when not the scheme's default), or null.
 *
 * @param string $value An origin or URL.
 */
function loyalty_widgets_plain_origin( string $value ): ?string {
	$parts = wp_parse_url( trim( $value ) );
	if ( ! is_array( $parts ) || empty( $parts['scheme'] ) || empty( $parts['host'] ) ) {
		return null;
	}
	$scheme  = strtolower( $parts['scheme'] );
	$port    = isset( $parts['port'] ) ? (int) $parts['port'] : null;
	$default = array(
		'http'  => 80,
		'https' => 443,
	);
	return $scheme . '://' . strtolower( $parts['host'] ) . ( null === $port || ( $default[ $scheme ] ?? null ) === $port ? '' : ':' . $port );
}

/**
 * The CORS headers of the request's answers; 403 `origin_not_allowed` for an origin that is neither
 * this site's nor listed.
 *
 * @param WP_REST_Request $request The request.
 * @param array           $origins The origins listed in the settings.
 * @throws Loyalty_Widgets_Proxy_Error For any other origin.
 */
function loyalty_widgets_cors_headers( WP_REST_Request $request, array $origins ): array {
	$allowed = array_filter( array_map( 'loyalty_widgets_plain_origin', $origins ) );
	$plain   = $allowed ? array( 'vary' => 'Origin' ) : array();
	$origin  = $request->get_header( 'origin' );
	if ( null === $origin ) {
		return $plain;
	}
	if ( in_array( $origin, $allowed, true ) ) {
		return array(
			'access-control-allow-origin' => $origin,
			'vary'                        => 'Origin',
		);
	}
	$host = isset( $_SERVER['HTTP_HOST'] ) ? sanitize_text_field( wp_unslash( $_SERVER['HTTP_HOST'] ) ) : '';
	// The request's own origin, and the site's addresses: behind a proxy that ends TLS, PHP may see http.
	$own = array(
		loyalty_widgets_plain_origin( ( is_ssl() ? 'https' : 'http' ) . '://' . $host ),
		loyalty_widgets_plain_origin( home_url( '/' ) ),
		loyalty_widgets_plain_origin( site_url( '/' ) ),
	);
	if ( in_array( $origin, $own, true ) ) {
		return $plain;
	}
	throw new Loyalty_Widgets_Proxy_Error( 403, 'origin_not_allowed', 'This origin may not call the Marketing proxy.' );
}

/**
 * The preflight's answer.
 *
 * @param array $cors The CORS headers.
 */
function loyalty_widgets_preflight( array $cors ): array {
	$headers = array(
		'allow'         => loyalty_widgets_contract()['cors']['allowedMethods'],
		'cache-control' => 'no-store',
	) + $cors;
	if ( isset( $cors['access-control-allow-origin'] ) ) {
		$rules                                    = loyalty_widgets_contract()['cors'];
		$headers['access-control-allow-methods']  = implode( ', ', array_diff( array_map( 'trim', explode( ',', $rules['allowedMethods'] ) ), array( 'OPTIONS' ) ) );
		$headers['access-control-allow-headers']  = $rules['allowedRequestHeaders'];
		$headers['access-control-max-age']        = (string) $rules['preflightMaxAgeSeconds'];
	}
	return array( 204, '', loyalty_widgets_header_case( $headers ) );
}
