<?php
/**
 * The first page of a block or shortcode, read through the plugin's own proxy in the same PHP
 * request (no HTTP call to itself): the route's operation, variable rules, rate limits, cache and
 * normalized answer, so a cached page costs no upstream call and the element's take-over sees exactly
 * the answer it would have fetched from the route. Only when the widgets read through that route
 * (the settings' endpoint is this site's): a first page from another proxy is not this one's to print.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/**
 * The proxy's answer (its JSON text) to a widget's first request, or null when there is none to print:
 * the widgets read through another proxy, the proxy is not set up, the widget reads nothing (a coupon
 * without a campaign) or names its own endpoint, or the proxy refused or could not answer.
 *
 * @param string $tag        The widget.
 * @param array  $attributes Its attributes as text, by the element's names.
 */
function loyalty_widgets_first_page_answer( string $tag, array $attributes ): ?string {
	try {
		$request = loyalty_widgets_first_request( $tag, $attributes );
		if ( null === $request || '' !== loyalty_widgets_js_trim( $attributes['endpoint'] ?? '' ) ) {
			return null;
		}
		if ( loyalty_widgets_settings()['endpoint'] !== loyalty_widgets_default_endpoint() ) {
			return null;
		}
		$config = loyalty_widgets_proxy_config();
		if ( '' === $config['url'] || '' === $config['key'] ) {
			return null;
		}
		list( $name, $variables ) = $request;
		$contract                 = loyalty_widgets_contract();
		$variables                = loyalty_widgets_check_variables( $contract['operations'][ $name ]['variables'], $variables, $contract['limits']['maxStringLength'] );
		loyalty_widgets_ensure_table();
		// The visitor whose page view asks is counted, as when their browser asks the route.
		$address               = loyalty_widgets_rate_limit_address( isset( $_SERVER['REMOTE_ADDR'] ) ? sanitize_text_field( wp_unslash( $_SERVER['REMOTE_ADDR'] ) ) : '' );
		list( $status, $body ) = loyalty_widgets_answer_query( $config, $name, $variables, $address );
		return 200 === $status ? $body : null;
	} catch ( Loyalty_Widgets_Proxy_Error $error ) {
		// The element asks the route itself, and shows what it is told.
		return null;
	} catch ( Throwable $error ) {
		error_log( 'loyalty-widgets first page: ' . loyalty_widgets_scrub( $error->getMessage(), loyalty_widgets_marketing_key() ) ); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_error_log
		return null;
	}
}

/**
 * A widget's mount with its first page inside, read through the plugin's proxy (see
 * loyalty_widgets_first_page_answer()); the bare mount when there is none to print.
 *
 * @param string $tag        The widget.
 * @param array  $attributes Its attributes as text, by the element's names.
 * @param string $own        The mount's own attributes (a block's class), escaped.
 */
function loyalty_widgets_render_first_page( string $tag, array $attributes, string $own = '' ): string {
	return loyalty_widgets_render_mount( $tag, $attributes, loyalty_widgets_first_page_answer( $tag, $attributes ), $own );
}
