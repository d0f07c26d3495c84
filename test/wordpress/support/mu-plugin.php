<?php
/**
 * Plugin Name: Test site: an analytics plugin
 * Description: What any analytics plugin does: an inline script in <head> that reads the page's address
 * (here it keeps every address it saw in localStorage, for the tests to read).
 */

add_action(
	'wp_head',
	static function () {
		echo "<script>(function(){var seen=JSON.parse(localStorage.getItem('analytics-seen')||'[]');seen.push(location.href);localStorage.setItem('analytics-seen',JSON.stringify(seen));})();</script>\n";
	},
	0
);

// The classic editor (TinyMCE), as the Classic Editor plugin gives it, while a test asks for it.
add_filter( 'use_block_editor_for_post', static fn( $use ) => get_option( 'test_classic_editor' ) ? false : $use );

// An offline site, as a host without a network answers: WordPress's HTTP API gives every request to
// wordpress.org (update checks, the dashboard's news feeds, translations) the error it gives when the
// host cannot be resolved, and WordPress answers that as it does offline.
add_filter(
	'pre_http_request',
	static function ( $response, $args, $url ) {
		$host = wp_parse_url( $url, PHP_URL_HOST );
		if ( is_string( $host ) && preg_match( '/(^|\.)wordpress\.org$/', $host ) ) {
			return new WP_Error( 'http_request_failed', sprintf( 'cURL error 6: Could not resolve host: %s', $host ) );
		}
		return $response;
	},
	10,
	3
);
