<?php
/**
 * The script tag (as a module) and the stylesheet that holds the elements' space, once per page and
 * versioned, and the merchant's settings as the metas the elements read in <head>.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/** Registers the script and stylesheet from the plugin's dist/ folder. */
function loyalty_widgets_register_assets(): void {
	$dist = plugins_url( 'dist/', LOYALTY_WIDGETS_FILE );
	wp_register_script( 'loyalty-widgets', $dist . 'loyalty-widgets.js', array(), LOYALTY_WIDGETS_VERSION, false );
	wp_register_style( 'loyalty-widgets', $dist . 'loyalty-widgets.css', array(), LOYALTY_WIDGETS_VERSION );
}
add_action( 'init', 'loyalty_widgets_register_assets' );

/** Every front-end page gets them: any post may hold a block, a shortcode or a mount. */
function loyalty_widgets_enqueue_assets(): void {
	wp_enqueue_script( 'loyalty-widgets' );
	wp_enqueue_style( 'loyalty-widgets' );
}
add_action( 'wp_enqueue_scripts', 'loyalty_widgets_enqueue_assets' );
add_action( 'enqueue_block_editor_assets', 'loyalty_widgets_enqueue_assets' );

/**
 * WordPress before 6.5 has no module scripts: the script tag is made one (`type="module"`, which
 * also defers it).
 *
 * @param string $tag    The script tag WordPress built.
 * @param string $handle The script's handle.
 */
function loyalty_widgets_module_tag( string $tag, string $handle ): string {
	if ( 'loyalty-widgets' !== $handle ) {
		return $tag;
	}
	$tag = preg_replace( '/\stype=([\'"])[^\'"]*\1/', '', $tag );
	return preg_replace( '/<script(?=\s)/', '<script type="module"', $tag, 1 );
}
add_filter( 'script_loader_tag', 'loyalty_widgets_module_tag', 10, 2 );

/** The metas that say where the widgets' proxy is, where tokens may go, and the page's sign-in. */
function loyalty_widgets_head_metas(): void {
	$settings = loyalty_widgets_settings();
	$metas    = array(
		'loyalty-endpoint'      => $settings['endpoint'],
		'loyalty-token-origins' => implode( ' ', loyalty_widgets_token_origins( $settings ) ),
		'loyalty-authority'     => $settings['authority'],
		'loyalty-client-id'     => $settings['client_id'],
		// Always: a button that names its own provider still comes back to the plugin's bare callback.
		'loyalty-redirect-uri'  => loyalty_widgets_callback_url(),
	);
	foreach ( $metas as $name => $content ) {
		if ( '' !== $content ) {
			printf( "<meta name=\"%s\" content=\"%s\">\n", esc_attr( $name ), esc_attr( $content ) );
		}
	}
}
add_action( 'wp_head', 'loyalty_widgets_head_metas', 1 );

add_action(
	'admin_head',
	static function () {
		$screen = get_current_screen();
		if ( $screen && $screen->is_block_editor() ) {
			loyalty_widgets_head_metas(); // The blocks' live previews read them too.
		}
	}
);
