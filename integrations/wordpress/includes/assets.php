<?php
/**
 * The script tag (as a module) and the stylesheet that holds the elements' space, once per page,
 * and the merchant's settings as the metas the elements read in <head>.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/** Registers the script and stylesheet from the plugin's dist/ folder. */
function loyalty_widgets_register_assets(): void {
	$dist = plugins_url( 'dist/', LOYALTY_WIDGETS_FILE );
	// No version query on the script: the elements' files import it by its plain address, and under
	// another address the browser would fetch and run a second copy of it.
	wp_register_script( 'loyalty-widgets', $dist . 'loyalty-widgets.js', array(), null, false ); // phpcs:ignore WordPress.WP.EnqueuedResourceParameters.MissingVersion
	wp_register_style( 'loyalty-widgets', $dist . 'loyalty-widgets.css', array(), LOYALTY_WIDGETS_VERSION );
}
add_action( 'init', 'loyalty_widgets_register_assets' );

/** Loads the script and stylesheet; early enough, they are printed in <head>, later in the footer. */
function loyalty_widgets_enqueue_assets(): void {
	wp_enqueue_script( 'loyalty-widgets' );
	wp_enqueue_style( 'loyalty-widgets' );
}
add_action( 'enqueue_block_editor_assets', 'loyalty_widgets_enqueue_assets' );

/**
 * Whether some HTML holds a widget: a block, a shortcode, a mount or an element.
 *
 * @param string $html Post content, or a widget's HTML.
 */
function loyalty_widgets_has_widget( string $html ): bool {
	$definitions = loyalty_widgets_definitions();
	// The launcher has no block or shortcode (a setting places it), but its tag is an element all the same.
	$tags        = implode( '|', array_merge( array_keys( $definitions ), array( 'loyalty-launcher' ) ) );
	$shortcodes  = implode( '|', array_column( $definitions, 'shortcode' ) );
	return 1 === preg_match( "~<!-- wp:loyalty-widgets/|\\[(?:{$shortcodes})[\\s\\]/]|data-loyalty-widget|<(?:{$tags})[\\s>/]~i", $html );
}

/**
 * Only pages with a widget load the script and stylesheet. What the page's posts hold is known
 * before <head> is printed; a block or shortcode rendered later (a classic theme's template, a
 * sidebar) loads them itself, and a widget's HTML in the content or a text widget through
 * loyalty_widgets_content(). The metas stay on every page: sign-in is pinned by the head.
 */
function loyalty_widgets_enqueue_for_page(): void {
	global $wp_query;
	$found = false;
	$posts = isset( $wp_query->posts ) && is_array( $wp_query->posts ) ? $wp_query->posts : array();
	foreach ( $posts as $post ) {
		if ( $post instanceof WP_Post && loyalty_widgets_has_widget( $post->post_content ) ) {
			$found = true;
			break;
		}
	}
	/**
	 * Filters whether this page loads the widgets' script and stylesheet in its head: true for a
	 * template that prints a widget's markup itself.
	 *
	 * @param bool $found Whether the page's posts hold a widget.
	 */
	if ( apply_filters( 'loyalty_widgets_page_has_widgets', $found ) ) {
		loyalty_widgets_enqueue_assets();
	}
}
add_action( 'wp_enqueue_scripts', 'loyalty_widgets_enqueue_for_page' );

/**
 * Mounts in content take the settings' currency and language, as blocks do, unless the editor gave
 * the mount its own (`data-currency`, `data-lang` or `lang`); and HTML with a widget loads the assets.
 *
 * @param mixed $html Post content or a widget's HTML.
 * @return mixed The HTML.
 */
function loyalty_widgets_content( $html ) {
	if ( ! is_string( $html ) || ! loyalty_widgets_has_widget( $html ) ) {
		return $html;
	}
	loyalty_widgets_enqueue_assets();
	$settings = loyalty_widgets_settings();
	if ( false === stripos( $html, 'data-loyalty-widget' ) || ( '' === $settings['currency'] && '' === $settings['language'] ) ) {
		return $html;
	}
	// A start tag and its attributes, quoted values included (they may hold ">").
	$start_tag = '~(<[a-z][a-z0-9-]*)((?:\s+[^\s"\'<>/=]+(?:\s*=\s*(?:"[^"]*"|\'[^\']*\'|[^\s"\'>]+))?)*)(\s*/?>)~i';
	return preg_replace_callback(
		$start_tag,
		static function ( array $match ) use ( $settings ): string {
			preg_match_all( '~([^\s"\'<>/=]+)(?:\s*=\s*("[^"]*"|\'[^\']*\'|[^\s"\'>]+))?~', $match[2], $found, PREG_SET_ORDER );
			$attributes = array();
			foreach ( $found as $attribute ) {
				$attributes[ strtolower( $attribute[1] ) ] = html_entity_decode( trim( $attribute[2] ?? '', '"\'' ), ENT_QUOTES, 'UTF-8' );
			}
			$tag = strtolower( trim( $attributes['data-loyalty-widget'] ?? '' ) );
			if ( ! isset( loyalty_widgets_definitions()[ $tag ] ) ) {
				return $match[0];
			}
			$added = '';
			if ( '' !== $settings['currency'] && ! isset( $attributes['data-currency'] ) && isset( loyalty_widgets_definitions()[ $tag ]['attributes']['currency'] ) ) {
				$added .= sprintf( ' data-currency="%s"', esc_attr( $settings['currency'] ) );
			}
			if ( '' !== $settings['language'] && ! isset( $attributes['data-lang'] ) && ! isset( $attributes['lang'] ) ) {
				$added .= sprintf( ' data-lang="%s"', esc_attr( $settings['language'] ) );
			}
			return $match[1] . $match[2] . $added . $match[3];
		},
		$html
	);
}
foreach ( array( 'the_content', 'widget_text_content', 'widget_custom_html_content', 'widget_block_content' ) as $loyalty_widgets_filter ) {
	add_filter( $loyalty_widgets_filter, 'loyalty_widgets_content', 20 );
}

/**
 * WordPress before 6.5 has no module scripts: the bundle's tag is made one (`type="module"`, which
 * also defers it). The filter gets the tag with any inline script added before or after it; only
 * the bundle's own tag, found by its id, changes.
 *
 * @param string $tag    The script tags WordPress built.
 * @param string $handle The script's handle.
 */
function loyalty_widgets_module_tag( string $tag, string $handle ): string {
	if ( 'loyalty-widgets' !== $handle ) {
		return $tag;
	}
	return preg_replace_callback(
		'~<script\b([^>]*\sid=([\'"])loyalty-widgets-js\2[^>]*)>~',
		static fn( array $match ): string => '<script type="module"' . preg_replace( '~\stype=([\'"])[^\'"]*\1~', '', $match[1] ) . '>',
		$tag,
		1
	);
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
