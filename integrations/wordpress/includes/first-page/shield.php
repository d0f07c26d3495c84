<?php
/**
 * A printed first page as WordPress's own filters must leave it. A block's or shortcode's HTML is
 * read again after it is rendered: by `the_content`'s and the widget areas' do_shortcode (a campaign
 * title's `[embed]…[/embed]` would run as a shortcode), and by the block template's and the content's
 * wptexturize, convert_smilies and capital_P_dangit (its `--` would become a dash, its `:)` a smiley,
 * before the element shows the text as it is). The characters those filters look for are written as
 * character references in the markup and as `\u` escapes in the answer's JSON strings: the page reads
 * the same text and its element gets the same answer, and the filters find nothing to act on.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/**
 * A printed mount, shielded from WordPress's content filters (the same text, the same answer).
 *
 * @param string $html The mount, as loyalty_widgets_render_mount() prints it.
 */
function loyalty_widgets_shielded( string $html ): string {
	$open  = '<script type="application/json">';
	$start = strpos( $html, $open );
	if ( false === $start ) {
		return loyalty_widgets_shielded_markup( $html );
	}
	$start += strlen( $open );
	$end    = strpos( $html, '</script>', $start );
	// A shortcode's brackets inside the answer's strings; outside them, brackets are the JSON's own.
	$json = preg_replace_callback(
		'/"(?:[^"\\\\]|\\\\.)*"/s',
		static fn( array $string ): string => strtr(
			$string[0],
			array(
				'[' => '\u005b',
				']' => '\u005d',
			)
		),
		substr( $html, $start, $end - $start )
	);
	return loyalty_widgets_shielded_markup( substr( $html, 0, $start ) ) . $json . loyalty_widgets_shielded_markup( substr( $html, $end ) );
}

/**
 * Markup without its script: brackets in tags (attribute values), and in text what do_shortcode,
 * wptexturize, convert_smilies and capital_P_dangit look for, as character references.
 *
 * @param string $html The markup.
 */
function loyalty_widgets_shielded_markup( string $html ): string {
	$reference = static fn( array $character ): string => '&#' . ord( $character[0] ) . ';';
	return (string) preg_replace_callback(
		'/<[^>]*>|[^<]+/',
		static function ( array $piece ) use ( $reference ): string {
			if ( '<' === $piece[0][0] ) {
				return (string) preg_replace_callback( '/[\[\]]/', $reference, $piece[0] );
			}
			// Entities as they are; shortcodes' brackets; dashes, `...`, `(tm)`, quotes as backticks and
			// 2x3; smilies' `:` and `;` and their `8)` and `8O`; and the W of "Wordpress".
			return (string) preg_replace_callback(
				'/&#?[A-Za-z0-9]+;(*SKIP)(*FAIL)|[\[\]\-`(:;]|\.(?=\.)|(?<=\d)x(?=\d)|8(?=[)O])|W(?=ordpress)/',
				$reference,
				$piece[0]
			);
		},
		$html
	);
}
