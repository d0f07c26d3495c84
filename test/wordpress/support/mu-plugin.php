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
// wordpress.org (which WP_HTTP_BLOCK_EXTERNAL blocks, with a warning each time), its feeds an empty feed.
add_filter(
	'pre_http_request',
	static function ( $response, $args, $url ) {
		$host = wp_parse_url( $url, PHP_URL_HOST );
		// The dashboard's news widget reads feeds: an empty one, rather than a failure SimplePie warns about.
		if ( is_string( $host ) && preg_match( '/(^|\.)wordpress\.org$/', $host ) && preg_match( '#/feed/?$#', (string) wp_parse_url( $url, PHP_URL_PATH ) ) ) {
			return array(
				'headers'  => array( 'content-type' => 'application/rss+xml; charset=UTF-8' ),
				'body'     => '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>News</title><link>https://wordpress.org/news/</link><description>News</description></channel></rss>',
				'response' => array(
					'code'    => 200,
					'message' => 'OK',
				),
				'cookies'  => array(),
			);
		}
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
