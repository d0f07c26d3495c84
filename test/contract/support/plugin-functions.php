<?php
/**
 * Calls the WordPress plugin's functions that need no WordPress (the first page's renderer, its URL
 * reading and its shield against WordPress's content filters) from PHP's command line: a list of calls `{ "function", "arguments" }` on standard
 * input, the list of their results as JSON on standard output, each `{ "error" }` with the exception's
 * message when it threw. The plugin's folder
 * and the folder of its contract.json are the first two arguments.
 *
 * @package LoyaltyWidgets
 */

define( 'ABSPATH', __DIR__ . '/' );
define( 'LOYALTY_WIDGETS_FILE', $argv[2] . '/loyalty-widgets.php' );
require $argv[1] . '/includes/proxy/contract.php';
foreach ( array( 'url', 'display', 'markup', 'shield' ) as $file ) {
	require $argv[1] . "/includes/first-page/{$file}.php";
}

$calls = json_decode( stream_get_contents( STDIN ), true );
$results = array();
foreach ( is_array( $calls ) ? $calls : array( null ) as $call ) {
	if ( ! is_array( $call ) || ! preg_match( '/^loyalty_widgets_[a-z0-9_]+$/', $call['function'] ?? '' ) ) {
		fwrite( STDERR, "Send [ { \"function\": \"loyalty_widgets_…\", \"arguments\": [ … ] } ].\n" );
		exit( 2 );
	}
	try {
		$results[] = call_user_func_array( $call['function'], $call['arguments'] ?? array() );
	} catch ( Throwable $error ) {
		$results[] = array( 'error' => $error->getMessage() );
	}
}
echo json_encode( $results, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE );
