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

// An offline site: WordPress's update checks get "unavailable" from here instead of trying
// wordpress.org (which WP_HTTP_BLOCK_EXTERNAL blocks, with a warning each time).
add_filter(
	'pre_http_request',
	static function ( $response, $args, $url ) {
		$host = wp_parse_url( $url, PHP_URL_HOST );
		if ( is_string( $host ) && preg_match( '/(^|\.)wordpress\.org$/', $host ) ) {
			return array(
				'headers'  => array(),
				'body'     => '',
				'response' => array(
					'code'    => 503,
					'message' => 'Service Unavailable',
				),
				'cookies'  => array(),
			);
		}
		return $response;
	},
	10,
	3
);
