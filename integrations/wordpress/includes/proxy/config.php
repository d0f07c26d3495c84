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
	// Kept inside an array: WordPress's list of every option (wp-admin/options.php) prints plain strings, not arrays.
	$stored = get_option( LOYALTY_WIDGETS_KEY_OPTION, array() );
	return is_array( $stored ) && isset( $stored['key'] ) && is_string( $stored['key'] ) ? $stored['key'] : '';
}

/**
 * What the settings form sent as the key: a new key replaces the saved one, an empty field keeps it.
 *
 * @param mixed $input The submitted key.
 */
function loyalty_widgets_sanitize_key( $input ): array {
	$saved = array( 'key' => loyalty_widgets_key_from_constant() ? '' : loyalty_widgets_marketing_key() );
	if ( is_array( $input ) && isset( $input['key'] ) ) {
		$input = $input['key']; // Saved from code, in the stored shape.
	}
	$value = is_string( $input ) ? trim( wp_unslash( $input ) ) : '';
	if ( '' === $value || loyalty_widgets_key_from_constant() ) {
		return $saved;
	}
	if ( ! preg_match( '/^[\x21-\x7e]{1,512}$/', $value ) ) {
		add_settings_error( LOYALTY_WIDGETS_OPTION, 'loyalty-widgets-key', esc_html__( 'Marketing API key: paste the key as it was given to you (printable characters, no spaces).', 'loyalty-widgets' ) );
		return $saved;
	}
	return array( 'key' => $value );
}

// Before the settings, so that the settings' check on save uses the key saved with them.
add_action(
	'init',
	static function () {
		register_setting(
			'loyalty_widgets',
			LOYALTY_WIDGETS_KEY_OPTION,
			array(
				'type'              => 'array',
				'sanitize_callback' => 'loyalty_widgets_sanitize_key',
				'default'           => array(),
				'show_in_rest'      => false,
			)
		);
	},
	9
);

/** Whether the key comes from wp-config.php (the settings page then has no field for it). */
function loyalty_widgets_key_from_constant(): bool {
	return defined( 'LOYALTY_WIDGETS_MARKETING_API_KEY' ) && is_string( LOYALTY_WIDGETS_MARKETING_API_KEY ) && '' !== LOYALTY_WIDGETS_MARKETING_API_KEY;
}

/** The route's path on this site, as the widgets' endpoint (with ?rest_route= without pretty permalinks). */
function loyalty_widgets_default_endpoint(): string {
	$route = LOYALTY_WIDGETS_ROUTE_NAMESPACE . LOYALTY_WIDGETS_ROUTE;
	// Before WordPress sets up its rewrite rules (the sign-in callback answers that early), rest_url() cannot run.
	if ( ! isset( $GLOBALS['wp_rewrite'] ) ) {
		$home = (string) wp_parse_url( home_url( '/' ), PHP_URL_PATH );
		return get_option( 'permalink_structure' ) ? "{$home}" . rest_get_url_prefix() . "/{$route}" : "{$home}index.php?rest_route=/{$route}";
	}
	$parts = wp_parse_url( rest_url( $route ) );
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
