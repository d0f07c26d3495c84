<?php
/**
 * The four widgets as blocks (server-rendered, from blocks/<tag>/block.json) and as shortcodes for
 * the classic editor. Both render the same markup: a block-level wrapper, which block themes place in
 * the content column like a paragraph. The sign-in button's holds the element; the campaigns, coupon
 * and businesses are their mount (`data-loyalty-widget`), holding their first page as HTML read
 * through the plugin's proxy (./first-page/), which the script tag turns into the element that takes
 * that page over. Every attribute an editor sets is checked against its kind and escaped; the sign-in
 * settings come from the settings page only.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/**
 * Each widget's attributes: block attribute name => [element attribute, kind]. Kinds: `text`,
 * `bool`, `limit` (1 to 50), `currency` (ISO 4217), `mode` (popup or redirect).
 */
function loyalty_widgets_definitions(): array {
	return array(
		'loyalty-signin-button' => array(
			'shortcode'  => 'loyalty_signin_button',
			'attributes' => array(
				'mode' => array( 'mode', 'mode' ),
			),
		),
		'campaign-carousel'     => array(
			'shortcode'  => 'loyalty_campaign_carousel',
			'attributes' => array(
				'businessAccountId' => array( 'business-account-id', 'text' ),
				'limit'             => array( 'limit', 'limit' ),
				'claim'             => array( 'claim', 'bool' ),
				'autoplay'          => array( 'autoplay', 'bool' ),
				'currency'          => array( 'currency', 'currency' ),
				'label'             => array( 'label', 'text' ),
			),
		),
		'coupon-claim'          => array(
			'shortcode'  => 'loyalty_coupon_claim',
			'attributes' => array(
				'campaignId'    => array( 'campaign-id', 'text' ),
				'requireSignin' => array( 'require-signin', 'bool' ),
				'allowMultiple' => array( 'allow-multiple', 'bool' ),
				'compact'       => array( 'compact', 'bool' ),
				'currency'      => array( 'currency', 'currency' ),
			),
		),
		'business-directory'    => array(
			'shortcode'  => 'loyalty_business_directory',
			'attributes' => array(
				'category' => array( 'category', 'text' ),
				'limit'    => array( 'limit', 'limit' ),
			),
		),
	);
}

/**
 * One attribute's value as the element takes it, or null to leave it out.
 *
 * @param string $kind  The attribute's kind.
 * @param mixed  $value What the block or shortcode holds.
 */
function loyalty_widgets_attribute_value( string $kind, $value ): ?string {
	if ( is_array( $value ) || is_object( $value ) || null === $value ) {
		return null;
	}
	$value = trim( (string) $value );
	switch ( $kind ) {
		case 'bool':
			return in_array( strtolower( $value ), array( '1', 'true', 'yes', 'on' ), true ) ? '' : null;
		case 'limit':
			return preg_match( '/^\d{1,2}$/', $value ) && (int) $value >= 1 && (int) $value <= 50 ? (string) (int) $value : null;
		case 'currency':
			return preg_match( '/^[A-Za-z]{3}$/', $value ) ? strtoupper( $value ) : null;
		case 'mode':
			return in_array( $value, array( 'popup', 'redirect' ), true ) ? $value : null;
		default:
			// Cut by characters, never inside one (a cut UTF-8 sequence makes esc_attr() print nothing).
			return '' === $value ? null : mb_substr( sanitize_text_field( $value ), 0, 200, 'UTF-8' );
	}
}

/**
 * The markup of one widget.
 *
 * @param string $tag     The element's tag.
 * @param array  $values  Block attribute name => value.
 * @param string $wrapper The wrapper's attributes, already escaped.
 */
function loyalty_widgets_markup( string $tag, array $values, string $wrapper ): string {
	$definition = loyalty_widgets_definitions()[ $tag ];
	$settings   = loyalty_widgets_settings();
	loyalty_widgets_enqueue_assets(); // Also for a widget a template prints after <head>: then in the footer.
	$attributes = array();
	if ( 'loyalty-signin-button' === $tag ) {
		$attributes['authority'] = $settings['authority'];
		$attributes['client-id'] = $settings['client_id'];
		if ( '' !== $settings['authority'] ) {
			$attributes['redirect-uri'] = loyalty_widgets_callback_url();
		}
	}
	foreach ( $definition['attributes'] as $name => list( $attribute, $kind ) ) {
		$value = loyalty_widgets_attribute_value( $kind, $values[ $name ] ?? null );
		if ( null !== $value ) {
			$attributes[ $attribute ] = $value;
		}
	}
	if ( ! isset( $attributes['currency'] ) && isset( $definition['attributes']['currency'] ) && '' !== $settings['currency'] ) {
		$attributes['currency'] = $settings['currency'];
	}
	if ( '' !== $settings['language'] ) {
		$attributes['lang'] = $settings['language'];
	}
	if ( 'loyalty-signin-button' !== $tag ) {
		try {
			// The Marketing widgets print their mount, with the first page inside when the proxy gives it.
			return loyalty_widgets_shielded( loyalty_widgets_render_first_page( $tag, $attributes, $wrapper ) );
		} catch ( Loyalty_Widgets_Proxy_Error $error ) {
			// A plugin copied without its build's contract.json: the element alone, which loads its first page.
			unset( $error );
		}
	}
	$html = '';
	foreach ( $attributes as $name => $value ) {
		$html .= '' === $value ? ' ' . $name : sprintf( ' %s="%s"', $name, esc_attr( $value ) );
	}
	return sprintf( '<div %1$s><%2$s%3$s></%2$s></div>', $wrapper, $tag, $html );
}

/** Registers the four blocks and the four shortcodes. */
function loyalty_widgets_register_widgets(): void {
	wp_register_script(
		'loyalty-widgets-editor',
		plugins_url( 'editor/blocks.js', LOYALTY_WIDGETS_FILE ),
		array( 'wp-blocks', 'wp-element', 'wp-block-editor', 'wp-components', 'wp-server-side-render', 'wp-i18n' ),
		LOYALTY_WIDGETS_VERSION,
		true
	);
	wp_set_script_translations( 'loyalty-widgets-editor', 'loyalty-widgets', plugin_dir_path( LOYALTY_WIDGETS_FILE ) . 'languages' );

	foreach ( loyalty_widgets_definitions() as $tag => $definition ) {
		register_block_type(
			plugin_dir_path( LOYALTY_WIDGETS_FILE ) . 'blocks/' . $tag,
			array(
				'render_callback' => static function ( $attributes ) use ( $tag ) {
					return loyalty_widgets_markup( $tag, is_array( $attributes ) ? $attributes : array(), get_block_wrapper_attributes() );
				},
			)
		);
		add_shortcode(
			$definition['shortcode'],
			static function ( $atts ) use ( $tag, $definition ) {
				$values = array();
				$atts   = is_array( $atts ) ? $atts : array();
				foreach ( $definition['attributes'] as $name => list( $attribute ) ) {
					// Shortcode attributes are lowercase: business_account_id or business-account-id.
					$key = str_replace( '-', '_', $attribute );
					if ( isset( $atts[ $key ] ) ) {
						$values[ $name ] = $atts[ $key ];
					} elseif ( isset( $atts[ $attribute ] ) ) {
						$values[ $name ] = $atts[ $attribute ];
					}
				}
				return loyalty_widgets_markup( $tag, $values, sprintf( 'class="%s"', esc_attr( 'loyalty-widgets-shortcode wp-block-loyalty-widgets-' . $tag ) ) );
			}
		);
	}
}
add_action( 'init', 'loyalty_widgets_register_widgets' );
