<?php
/**
 * The bare sign-in callback: `/?loyalty-widgets-callback=1` on the site's home address, with plain
 * or pretty permalinks alike. Connect sends the shopper's tokens there; it is answered as soon as
 * the plugins are loaded, before any theme, template or `wp_head` output, so no theme's or other
 * plugin's script is on the page to read them, and it is never cached.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/**
 * Whether this request is for the callback: the parameter on the home path itself, never on another
 * of WordPress's entry points (wp-login.php, xmlrpc.php, the REST API), which keep their own answers.
 */
function loyalty_widgets_is_callback_request(): bool {
	// phpcs:disable WordPress.Security.NonceVerification.Recommended -- a read-only page, no state changes here.
	if ( ! isset( $_GET['loyalty-widgets-callback'] ) || isset( $_GET['rest_route'] ) || is_admin() || wp_doing_ajax() ) {
		return false;
	}
	// phpcs:enable
	$uri  = isset( $_SERVER['REQUEST_URI'] ) ? wp_unslash( $_SERVER['REQUEST_URI'] ) : ''; // phpcs:ignore WordPress.Security.ValidatedSanitizedInput.InputNotSanitized -- only compared.
	$path = wp_parse_url( $uri, PHP_URL_PATH );
	$home = wp_parse_url( home_url( '/' ), PHP_URL_PATH );
	return is_string( $path ) && untrailingslashit( $path ) === untrailingslashit( is_string( $home ) ? $home : '/' );
}

/** Answers the callback address, then stops. */
function loyalty_widgets_answer_callback(): void {
	if ( ! loyalty_widgets_is_callback_request() ) {
		return;
	}
	if ( ! defined( 'DONOTCACHEPAGE' ) ) {
		define( 'DONOTCACHEPAGE', true ); // Page-caching plugins' convention.
	}
	load_plugin_textdomain( 'loyalty-widgets', false, dirname( plugin_basename( LOYALTY_WIDGETS_FILE ) ) . '/languages' );
	$script = add_query_arg( 'ver', LOYALTY_WIDGETS_VERSION, plugins_url( 'dist/connect-callback.js', LOYALTY_WIDGETS_FILE ) );
	// A fresh nonce for each answer (it is never cached): the script it marks, and the modules that one
	// imports, are the only scripts that run here, wherever plugins_url() points (a CDN, a relative URL).
	$nonce = bin2hex( random_bytes( 16 ) );
	$lang  = loyalty_widgets_settings()['language'];

	status_header( 200 );
	nocache_headers();
	header( 'Cache-Control: no-store, no-cache, must-revalidate, max-age=0' );
	header( 'Content-Type: text/html; charset=utf-8' );
	header( 'Referrer-Policy: no-referrer' );
	header( 'X-Robots-Tag: noindex, nofollow' );
	// Only the callback's own script may run here, whatever else the server adds to pages, and no page
	// may frame it (X-Frame-Options for browsers without frame-ancestors).
	header( "Content-Security-Policy: script-src 'nonce-{$nonce}'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'" );
	header( 'X-Frame-Options: DENY' );
	?>
<!doctype html>
<html lang="<?php echo esc_attr( '' !== $lang ? $lang : str_replace( '_', '-', determine_locale() ) ); ?>">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title><?php echo esc_html__( 'Signing in…', 'loyalty-widgets' ); ?></title>
<script type="module" nonce="<?php echo esc_attr( $nonce ); ?>" src="<?php echo esc_url( $script ); ?>"></script>
</head>
<body>
<p data-loyalty-callback-status data-loyalty-callback-orphan="<?php echo esc_attr__( 'There is no sign-in in progress. You can close this window.', 'loyalty-widgets' ); ?>" data-loyalty-callback-failed="<?php echo esc_attr__( 'The sign-in was not completed', 'loyalty-widgets' ); ?>"><?php echo esc_html__( 'Signing in… This window closes by itself.', 'loyalty-widgets' ); ?></p>
</body>
</html>
	<?php
	exit;
}

add_action( 'plugins_loaded', 'loyalty_widgets_answer_callback', 0 );
