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

/** Answers the callback address, then stops. */
function loyalty_widgets_answer_callback(): void {
	// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- a read-only page, no state changes here.
	if ( ! isset( $_GET['loyalty-widgets-callback'] ) || is_admin() || wp_doing_ajax() ) {
		return;
	}
	if ( ! defined( 'DONOTCACHEPAGE' ) ) {
		define( 'DONOTCACHEPAGE', true ); // Page-caching plugins' convention.
	}
	load_plugin_textdomain( 'loyalty-widgets', false, dirname( plugin_basename( LOYALTY_WIDGETS_FILE ) ) . '/languages' );
	$script = add_query_arg( 'ver', LOYALTY_WIDGETS_VERSION, plugins_url( 'dist/connect-callback.js', LOYALTY_WIDGETS_FILE ) );
	$parts  = wp_parse_url( $script );
	$origin = $parts['scheme'] . '://' . $parts['host'] . ( isset( $parts['port'] ) ? ':' . $parts['port'] : '' );
	$lang   = loyalty_widgets_settings()['language'];

	status_header( 200 );
	nocache_headers();
	header( 'Cache-Control: no-store, no-cache, must-revalidate, max-age=0' );
	header( 'Content-Type: text/html; charset=utf-8' );
	header( 'Referrer-Policy: no-referrer' );
	header( 'X-Robots-Tag: noindex, nofollow' );
	// Only the callback's own script may run here, whatever else the server adds to pages.
	header( "Content-Security-Policy: script-src {$origin}; object-src 'none'; base-uri 'none'" );
	?>
<!doctype html>
<html lang="<?php echo esc_attr( '' !== $lang ? $lang : str_replace( '_', '-', determine_locale() ) ); ?>">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title><?php echo esc_html__( 'Signing in…', 'loyalty-widgets' ); ?></title>
<script type="module" src="<?php echo esc_url( $script ); ?>"></script>
</head>
<body>
<p data-loyalty-callback-status data-loyalty-callback-orphan="<?php echo esc_attr__( 'There is no sign-in in progress. You can close this window.', 'loyalty-widgets' ); ?>" data-loyalty-callback-failed="<?php echo esc_attr__( 'The sign-in was not completed', 'loyalty-widgets' ); ?>"><?php echo esc_html__( 'Signing in… This window closes by itself.', 'loyalty-widgets' ); ?></p>
</body>
</html>
	<?php
	exit;
}

add_action( 'plugins_loaded', 'loyalty_widgets_answer_callback', 0 );
