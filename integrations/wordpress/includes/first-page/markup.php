<?php
/**
 * A widget's mount with its first page inside, printed as the Node proxy's renderer prints it
 * (src/proxy/render/), byte for byte: the same template, read from the contract (`firstPage`), walked
 * over the display model (./display.php), every value escaped with the same five entities, the mount's
 * `data-` attributes in name order, and the proxy's answer handed to the element in a
 * `<script type="application/json">` that nothing in it can end. Display only: the element checks that
 * answer as it checks any, and what it does (later pages, claims) goes to the proxy.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/**
 * Text or an attribute's value, escaped as the Node renderer escapes it. Not esc_html()/esc_attr():
 * those leave an entity the upstream wrote (`&amp;`) as it is, which would then show as `&`.
 *
 * @param string $text The text.
 */
function loyalty_widgets_escape( string $text ): string {
	return strtr(
		$text,
		array(
			'&' => '&amp;',
			'<' => '&lt;',
			'>' => '&gt;',
			'"' => '&quot;',
			"'" => '&#39;',
		)
	);
}

/**
 * The proxy's answer as the text of a `<script type="application/json">`: the same JSON, with what
 * could end the element or a line of script (`<`, `>`, `&`, U+2028, U+2029) as lower-case `\u` escapes
 * (wp_json_encode()'s JSON_HEX_TAG writes them upper case, and would write the answer anew).
 *
 * @param string $answer The proxy's JSON answer.
 */
function loyalty_widgets_script_json( string $answer ): string {
	return strtr(
		$answer,
		array(
			'<'        => '\u003c',
			'>'        => '\u003e',
			'&'        => '\u0026',
			"\u{2028}" => '\u2028',
			"\u{2029}" => '\u2029',
		)
	);
}

/**
 * A field's value, from the innermost entry outwards.
 *
 * @param array  $scopes The display model, then each entry entered.
 * @param string $name   The field.
 */
function loyalty_widgets_field( array $scopes, string $name ) {
	for ( $index = count( $scopes ) - 1; $index >= 0; $index-- ) {
		if ( array_key_exists( $name, $scopes[ $index ] ) ) {
			return $scopes[ $index ][ $name ];
		}
	}
	return null;
}

/**
 * Whether a field is there to show: `true`, a non-empty string or a non-empty list.
 *
 * @param mixed $value The field's value.
 */
function loyalty_widgets_field_present( $value ): bool {
	return true === $value || ( is_string( $value ) && '' !== $value ) || ( is_array( $value ) && array() !== $value );
}

/**
 * The HTML of template nodes over the display model.
 *
 * @param array $nodes  The nodes (src/marketing/first-page-template.ts describes them).
 * @param array $scopes The display model, then each entry entered.
 * @throws UnexpectedValueException For a heading field that names no heading.
 */
function loyalty_widgets_print_nodes( array $nodes, array $scopes ): string {
	$first_page = loyalty_widgets_contract()['firstPage'];
	$text_of    = static fn( $value ): string => is_string( $value ) ? $value : '';
	$html       = '';
	foreach ( $nodes as $node ) {
		if ( array_key_exists( 'text', $node ) ) {
			$html .= loyalty_widgets_escape( $text_of( loyalty_widgets_field( $scopes, $node['text'] ) ) );
		} elseif ( array_key_exists( 'each', $node ) ) {
			$entries = loyalty_widgets_field( $scopes, $node['each'] );
			foreach ( is_array( $entries ) ? $entries : array() as $entry ) {
				$html .= loyalty_widgets_print_nodes( $node['children'], array_merge( $scopes, array( $entry ) ) );
			}
		} elseif ( array_key_exists( 'when', $node ) ) {
			$html .= loyalty_widgets_field_present( loyalty_widgets_field( $scopes, $node['when'] ) ) ? loyalty_widgets_print_nodes( $node['children'], $scopes ) : '';
		} elseif ( array_key_exists( 'unless', $node ) ) {
			$html .= loyalty_widgets_field_present( loyalty_widgets_field( $scopes, $node['unless'] ) ) ? '' : loyalty_widgets_print_nodes( $node['children'], $scopes );
		} else {
			$tag = is_string( $node['el'] ) ? $node['el'] : $text_of( loyalty_widgets_field( $scopes, $node['el']['field'] ) );
			if ( ! is_string( $node['el'] ) && ! preg_match( '/^h[1-6]$/D', $tag ) ) {
				throw new UnexpectedValueException( "\"{$tag}\" is not a heading." );
			}
			$attributes = '';
			foreach ( $node['attrs'] ?? array() as $name => $value ) {
				$text = is_string( $value ) ? $value : $text_of( loyalty_widgets_field( $scopes, $value['field'] ) );
				if ( is_string( $value ) || '' !== $text ) {
					$attributes .= sprintf( ' %s="%s"', $name, loyalty_widgets_escape( $text ) );
				}
			}
			$html .= in_array( $tag, $first_page['voidElements'], true )
				? "<{$tag}{$attributes}>"
				: "<{$tag}{$attributes}>" . loyalty_widgets_print_nodes( $node['children'] ?? array(), $scopes ) . "</{$tag}>";
		}
	}
	return $html;
}

/**
 * A mount's attributes by the element's names, in name order, as text: `true` is an empty value,
 * `false` and null leave the attribute out.
 *
 * @param string $tag        The widget.
 * @param array  $attributes The element's attributes (`limit`, `campaign-id`, `claim`).
 * @throws InvalidArgumentException For a widget without a first page, or a name that is not an attribute.
 */
function loyalty_widgets_mount_attributes( string $tag, array $attributes ): array {
	$templates = loyalty_widgets_contract()['firstPage']['templates'];
	if ( ! isset( $templates[ $tag ] ) ) {
		throw new InvalidArgumentException( "\"{$tag}\" has no first page; use one of " . implode( ', ', array_keys( $templates ) ) . '.' );
	}
	ksort( $attributes, SORT_STRING );
	$written = array();
	foreach ( $attributes as $name => $value ) {
		$name = (string) $name;
		if ( ! preg_match( '/^[a-z][a-z0-9-]*$/D', $name ) || 'widget' === $name || 'loyalty-first-page' === $name ) {
			throw new InvalidArgumentException( "\"{$name}\" is not an attribute of <{$tag}>." );
		}
		if ( null === $value || false === $value ) {
			continue;
		}
		$written[ $name ] = true === $value ? '' : ( is_string( $value ) ? $value : loyalty_widgets_js_number_text( $value ) );
	}
	return $written;
}

/**
 * The mount of `$tag` with `$attributes`, and inside it the first page of `$answer` (the proxy's JSON
 * answer to the element's first request, as text). Without an answer, or with one the elements would
 * refuse, the bare mount: the element then asks for its first page itself.
 *
 * @param string      $tag        The widget.
 * @param array       $attributes The element's attributes (see loyalty_widgets_mount_attributes()).
 * @param string|null $answer     The proxy's answer.
 * @param string      $own        The mount's own attributes besides the widget's (a block's class), escaped.
 * @throws InvalidArgumentException For a widget without a first page, or a name that is not an attribute.
 */
function loyalty_widgets_render_mount( string $tag, array $attributes, ?string $answer = null, string $own = '' ): string {
	$first_page = loyalty_widgets_contract()['firstPage'];
	$written    = loyalty_widgets_mount_attributes( $tag, $attributes );
	$mount      = sprintf( '<div%s %s="%s"', '' === $own ? '' : ' ' . $own, $first_page['mountAttribute'], loyalty_widgets_escape( $tag ) );
	foreach ( $written as $name => $value ) {
		$mount .= sprintf( ' data-%s="%s"', $name, loyalty_widgets_escape( $value ) );
	}
	$inside = '';
	if ( null !== $answer ) {
		try {
			$markup  = loyalty_widgets_print_nodes( $first_page['templates'][ $tag ], array( loyalty_widgets_display_model( $tag, $answer, $written ) ) );
			$request = loyalty_widgets_first_request( $tag, $written );
			$inside  = sprintf( '<div %s="%s">%s<script type="application/json">%s</script></div>', $first_page['firstPageAttribute'], $request[0], $markup, loyalty_widgets_script_json( $answer ) );
		} catch ( Throwable $refused ) {
			// An answer the elements would refuse: they ask for it themselves, and say why.
			$inside = '';
		}
	}
	return "{$mount}>{$inside}</div>";
}

/**
 * The request a widget's element makes first, from its attributes, as the element makes it
 * (src/shared/first-request.ts): `[ operation, variables ]`, or null when it makes none (a coupon
 * without a campaign).
 *
 * @param string $tag        The widget.
 * @param array  $attributes Its attributes as text, by the element's names.
 */
function loyalty_widgets_first_request( string $tag, array $attributes ): ?array {
	$trimmed    = static function ( string $name ) use ( $attributes ): ?string {
		$value = loyalty_widgets_js_trim( $attributes[ $name ] ?? '' );
		return '' === $value ? null : $value;
	};
	$page_sizes = loyalty_widgets_contract()['firstPage']['pageSizes'];
	// The lists: their operation, and the variable of their filter with the attribute that gives it.
	$lists = array(
		'campaign-carousel'  => array( 'campaigns', 'businessAccountId', 'business-account-id' ),
		'business-directory' => array( 'businessAccounts', 'category', 'category' ),
	);
	if ( isset( $lists[ $tag ] ) ) {
		list( $operation, $filter, $attribute ) = $lists[ $tag ];
		$limit                                  = isset( $attributes['limit'] ) ? loyalty_widgets_js_number( $attributes['limit'] ) : NAN;
		$variables                              = array(
			$filter => $trimmed( $attribute ),
			'limit'  => floor( $limit ) === $limit && $limit >= 1 && $limit <= 50 ? (int) $limit : $page_sizes[ $tag ],
		);
		// A variable the element leaves out (undefined) is not sent.
		return array( $operation, array_filter( $variables, static fn( $value ): bool => null !== $value ) );
	}
	$id = 'coupon-claim' === $tag ? $trimmed( 'campaign-id' ) : null;
	return null === $id ? null : array( 'campaign', array( 'id' => $id ) );
}
