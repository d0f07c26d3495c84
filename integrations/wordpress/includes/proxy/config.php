<?php
/**
 * Where the proxy sends its calls and with which key, who may call it, and which coupons are for
 * signed-in shoppers only. The key comes from the constant LOYALTY_WIDGETS_MARKETING_API_KEY in
 * wp-config.php when it is defined (it wins), else from its own option, which no page prints back.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

const LOYALTY_WIDGETS_KEY_OPTION = 'loyalty_widgets_marketing_key';

/** The Marketing API key: the wp-config.php constant, else the option; '' when neither is set. */
function loyalty_widgets_marketing_key(): string {
	if ( defined( 'LOYALTY_WIDGETS_MARKETING_API_KEY' ) && is_string( LOYALTY_WIDGETS_MARKETING_API_KEY ) && '' !== LOYALTY_WIDGETS_MARKETING_API_KEY ) {
		return LOYALTY_WIDGETS_MARKETING_API_KEY;
	}
	$key = get_option( LOYALTY_WIDGETS_KEY_OPTION, '' );
	return is_string( $key ) ? $key : '';
}

/** Whether the key comes from wp-config.php (the settings page then has no field for it). */
function loyalty_widgets_key_from_constant(): bool {
	return defined( 'LOYALTY_WIDGETS_MARKETING_API_KEY' ) && is_string( LOYALTY_WIDGETS_MARKETING_API_KEY ) && '' !== LOYALTY_WIDGETS_MARKETING_API_KEY;
}

/** The route's path on this site, as the widgets' endpoint (with ?rest_route= without pretty permalinks). */
function loyalty_widgets_default_endpoint(): string {
	$url   = rest_url( LOYALTY_WIDGETS_ROUTE_NAMESPACE . LOYALTY_WIDGETS_ROUTE );
	$parts = wp_parse_url( $url );
	return ( $parts['path'] ?? '/' ) . ( isset( $parts['query'] ) ? '?' . $parts['query'] : '' );
}

/**
 * Values of a space- or comma-separated list.
 *
 * @param string $text The list.
 */
function loyalty_widgets_list( string $text ): array {
	return preg_split( '/[\s,]+/', $text, -1, PREG_SPLIT_NO_EMPTY );
}

/**
 * What the proxy runs with. `timeout_ms` and `rate_limits` default to the contract's and may be
 * changed with the filters `loyalty_widgets_proxy_timeout_ms` and `loyalty_widgets_proxy_rate_limits`.
 */
function loyalty_widgets_proxy_config(): array {
	$contract = loyalty_widgets_contract();
	$settings = loyalty_widgets_settings();
	$members  = loyalty_widgets_list( $settings['members_campaigns'] );
	return array(
		'url'         => $settings['marketing_url'],
		'key'         => loyalty_widgets_marketing_key(),
		'connect_url' => $settings['authority'],
		'client_id'   => $settings['client_id'],
		'members'     => in_array( '*', $members, true ) ? true : array_map( 'loyalty_widgets_campaign_id_key', $members ),
		'origins'     => loyalty_widgets_list( $settings['proxy_origins'] ),
		'timeout_ms'  => (int) apply_filters( 'loyalty_widgets_proxy_timeout_ms', $contract['limits']['timeoutMs'] ),
		'rate_limits' => apply_filters( 'loyalty_widgets_proxy_rate_limits', $contract['rateLimits'] ),
	);
}

/**
 * A campaign id as the members-only list compares it: ignoring case, surrounding spaces and Unicode width.
 *
 * @param string $id The id.
 */
function loyalty_widgets_campaign_id_key( string $id ): string {
	$id = trim( $id );
	if ( function_exists( 'normalizer_normalize' ) ) {
		$id = (string) normalizer_normalize( $id, Normalizer::FORM_KC );
	}
	return function_exists( 'mb_strtolower' ) ? mb_strtolower( $id, 'UTF-8' ) : strtolower( $id );
}
