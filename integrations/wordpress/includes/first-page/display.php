<?php
/**
 * The display model of a first page: the fields its template prints, read from the proxy's answer
 * with the checks the elements make (src/marketing/responses.ts, as src/marketing/first-page-display.ts reads
 * them): an answer not of that shape (no object, no list of items, a campaign without an id, a
 * business without a name) is refused whole, a field of another type reads as empty text, a URL that
 * is not `https:` (./url.php) never reaches the markup, pending businesses and those of another
 * category are left out.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/** A character JavaScript's `\s` and `trim()` take for whitespace (Unicode spaces and line ends, the BOM). */
const LOYALTY_WIDGETS_JS_SPACE = '[\x{9}-\x{d}\x{20}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]';

/**
 * An answer the elements would refuse.
 *
 * @param string $path     The value's place in the answer (`campaigns.items[0].content.title`).
 * @param string $expected What it should be.
 * @throws UnexpectedValueException Always.
 */
function loyalty_widgets_refuse( string $path, string $expected ): void {
	throw new UnexpectedValueException( "The Marketing response is not usable: {$path} should be {$expected}." );
}

/**
 * An object of the answer (decoded as stdClass, so `{}` and `[]` stay apart), as an array.
 *
 * @param mixed  $value The value.
 * @param string $path  Its place in the answer.
 */
function loyalty_widgets_answer_object( $value, string $path ): array {
	if ( ! $value instanceof stdClass ) {
		loyalty_widgets_refuse( $path, 'an object' );
	}
	return get_object_vars( $value );
}

/**
 * A list of the answer.
 *
 * @param mixed  $value The value.
 * @param string $path  Its place in the answer.
 */
function loyalty_widgets_answer_list( $value, string $path ): array {
	if ( ! is_array( $value ) ) {
		loyalty_widgets_refuse( $path, 'a list' );
	}
	return $value;
}

/**
 * A string of the answer.
 *
 * @param mixed  $value The value.
 * @param string $path  Its place in the answer.
 */
function loyalty_widgets_answer_string( $value, string $path ): string {
	if ( ! is_string( $value ) ) {
		loyalty_widgets_refuse( $path, 'a string' );
	}
	return $value;
}

/**
 * A text field: anything but a string (absent, null, a number) reads as ''.
 *
 * @param array  $parent The object holding it.
 * @param string $key    Its name.
 */
function loyalty_widgets_answer_text( array $parent, string $key ): string {
	return is_string( $parent[ $key ] ?? null ) ? $parent[ $key ] : '';
}

/**
 * The object at `$parent[ $key ]`, or null when it is anything else.
 *
 * @param array  $parent The object holding it.
 * @param string $key    Its name.
 */
function loyalty_widgets_answer_optional_object( array $parent, string $key ): ?array {
	return ( $parent[ $key ] ?? null ) instanceof stdClass ? get_object_vars( $parent[ $key ] ) : null;
}

/**
 * An image `{ url }`: its URL when safe; null when it is anything else.
 *
 * @param mixed $value The value.
 */
function loyalty_widgets_answer_image( $value ): ?string {
	return $value instanceof stdClass ? loyalty_widgets_safe_url( $value->url ?? null ) : null;
}

/**
 * Whitespace as JavaScript's `trim()` removes it (Unicode spaces and line ends, the BOM).
 *
 * @param string $text The text.
 */
function loyalty_widgets_js_trim( string $text ): string {
	$space = LOYALTY_WIDGETS_JS_SPACE;
	return (string) preg_replace( "/^{$space}+|{$space}+\$/uD", '', $text );
}

/**
 * A text upper or lower case as JavaScript writes it: with mbstring, any letter; without it, ASCII
 * letters only (`é` stays `é`).
 *
 * @param string $text  The text.
 * @param bool   $upper Upper case rather than lower.
 */
function loyalty_widgets_js_case( string $text, bool $upper ): string {
	if ( function_exists( 'mb_strtoupper' ) ) {
		return $upper ? mb_strtoupper( $text, 'UTF-8' ) : mb_strtolower( $text, 'UTF-8' );
	}
	return $upper ? strtoupper( $text ) : strtolower( $text );
}

/**
 * A program's custom property key as shoppers read it, as the directory writes it
 * (src/shared/property-label.ts): `openingHours` reads "Opening hours", `wifiSSID` "Wifi SSID".
 * Without mbstring, only ASCII letters change case and a word's length counts bytes, so a key with
 * other letters may read otherwise than in the element.
 *
 * @param string $key The key.
 */
function loyalty_widgets_property_label( string $key ): string {
	$space   = LOYALTY_WIDGETS_JS_SPACE;
	$trimmed = loyalty_widgets_js_trim( $key );
	if ( preg_match( "/{$space}/u", $trimmed ) ) {
		return $trimmed;
	}
	// lowerUpper and ACRONYMWord boundaries, then separators.
	$spaced = (string) preg_replace( '/(\p{Ll}|\p{N})(\p{Lu})/u', '$1 $2', $trimmed );
	$spaced = (string) preg_replace( '/(\p{Lu})(\p{Lu}\p{Ll})/u', '$1 $2', $spaced );
	$words  = (array) preg_split( "/(?:{$space}|[_-])+/u", $spaced, -1, PREG_SPLIT_NO_EMPTY );
	if ( array() === $words ) {
		return $key;
	}
	$length = function_exists( 'mb_strlen' ) ? static fn( string $word ): int => mb_strlen( $word, 'UTF-8' ) : 'strlen';
	foreach ( $words as $index => $word ) {
		$acronym         = loyalty_widgets_js_case( $word, true ) === $word && $length( $word ) > 1;
		$words[ $index ] = $acronym || 0 === $index ? $word : loyalty_widgets_js_case( $word, false );
	}
	$first    = (string) preg_replace( '/^./us', '', $words[0] );
	$words[0] = loyalty_widgets_js_case( substr( $words[0], 0, strlen( $words[0] ) - strlen( $first ) ), true ) . $first;
	return implode( ' ', $words );
}

/**
 * A text read as JavaScript's `Number()` reads it; NAN when it is no number.
 *
 * @param string $text The text.
 */
function loyalty_widgets_js_number( string $text ): float {
	$text = loyalty_widgets_js_trim( $text );
	if ( '' === $text ) {
		return 0.0;
	}
	if ( preg_match( '/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/D', $text ) ) {
		return (float) $text;
	}
	if ( preg_match( '/^([+-]?)Infinity$/D', $text, $sign ) ) {
		return '-' === $sign[1] ? -INF : INF;
	}
	$radixes = array(
		'x' => 16,
		'o' => 8,
		'b' => 2,
	);
	if ( preg_match( '/^0([xob])([0-9a-f]+)$/iD', $text, $match ) ) {
		$radix  = $radixes[ strtolower( $match[1] ) ];
		$digits = strtolower( $match[2] );
		return strspn( $digits, substr( '0123456789abcdef', 0, $radix ) ) === strlen( $digits ) ? (float) base_convert( $digits, $radix, 10 ) : NAN;
	}
	return NAN;
}

/**
 * A number as JavaScript's `String()` writes it (4 → "4", 4.5 → "4.5").
 *
 * @param int|float $number The number.
 */
function loyalty_widgets_js_number_text( $number ): string {
	if ( is_int( $number ) ) {
		return (string) $number;
	}
	if ( is_nan( $number ) ) {
		return 'NaN';
	}
	if ( is_infinite( $number ) ) {
		return $number > 0 ? 'Infinity' : '-Infinity';
	}
	if ( floor( $number ) === $number && abs( $number ) < 1e21 ) {
		return sprintf( '%.0f', $number );
	}
	// The shortest text that reads back as the same number, in JavaScript's notation for exponents.
	$text = (string) json_encode( $number, JSON_PRESERVE_ZERO_FRACTION ); // phpcs:ignore WordPress.WP.AlternativeFunctions.json_encode_json_encode -- a number, no WordPress needed.
	if ( preg_match( '/^(-?)(\d)(?:\.(\d+))?e([+-]?)(\d+)$/i', $text, $parts ) ) {
		list( , $sign, $first, $rest, $exponent_sign, $exponent ) = $parts;
		$digits = $first . rtrim( $rest, '0' );
		$power  = (int) ( '-' === $exponent_sign ? '-' . $exponent : $exponent );
		if ( $power >= 21 || $power <= -7 ) {
			return $sign . $first . ( strlen( $digits ) > 1 ? '.' . substr( $digits, 1 ) : '' ) . 'e' . ( $power < 0 ? '-' : '+' ) . abs( $power );
		}
		if ( $power < 0 ) {
			return $sign . '0.' . str_repeat( '0', -$power - 1 ) . $digits;
		}
		$whole = str_pad( substr( $digits, 0, $power + 1 ), $power + 1, '0' );
		$part  = substr( $digits, $power + 1 );
		return $sign . $whole . ( '' === $part ? '' : '.' . $part );
	}
	return str_ends_with( $text, '.0' ) ? substr( $text, 0, -2 ) : $text;
}

/**
 * `tel:` and the number's digits, with its leading `+`; null when it has no digit.
 *
 * @param string $phone The number as written.
 */
function loyalty_widgets_tel_href( string $phone ): ?string {
	$digits = (string) preg_replace( '/\D/', '', $phone );
	return '' === $digits ? null : 'tel:' . ( str_starts_with( loyalty_widgets_js_trim( $phone ), '+' ) ? '+' : '' ) . $digits;
}

/**
 * A campaign as the elements read it: `{ title, subtitle, description, images, price }`, `price` null
 * for a campaign of another kind than a coupon.
 *
 * @param mixed  $value The value.
 * @param string $path  Its place in the answer.
 */
function loyalty_widgets_answer_campaign( $value, string $path ): array {
	$campaign = loyalty_widgets_answer_object( $value, $path );
	$content  = loyalty_widgets_answer_object( $campaign['content'] ?? null, "{$path}.content" );
	$images   = array();
	// The image at each width the proxy asked for, as `img320`, `img640`…: whatever widths it chose.
	foreach ( $content as $key => $image ) {
		if ( preg_match( '/^img([1-9]\d{0,4})$/D', (string) $key, $width ) ) {
			$url = loyalty_widgets_answer_image( $image );
			if ( null !== $url ) {
				$images[] = array(
					'width' => (int) $width[1],
					'url'   => $url,
				);
			}
		}
	}
	usort( $images, static fn( array $a, array $b ): int => $a['width'] <=> $b['width'] );
	loyalty_widgets_answer_string( $campaign['id'] ?? null, "{$path}.id" );
	$price     = null;
	$objective = loyalty_widgets_answer_optional_object( $content, 'objective' );
	if ( null !== $objective && 'CouponObjective' === loyalty_widgets_answer_text( $objective, '__typename' ) ) {
		$written = $objective['price'] ?? null;
		$price   = is_int( $written ) || is_float( $written ) ? loyalty_widgets_js_number_text( $written ) : loyalty_widgets_answer_text( $objective, 'price' );
	}
	return array(
		'title'       => loyalty_widgets_answer_text( $content, 'title' ),
		'subtitle'    => loyalty_widgets_answer_text( $content, 'subtitle' ),
		'description' => loyalty_widgets_answer_text( $content, 'description' ),
		'images'      => $images,
		'price'       => $price,
	);
}

/**
 * A business account as the elements read it.
 *
 * @param mixed  $value The value.
 * @param string $path  Its place in the answer.
 */
function loyalty_widgets_answer_business_account( $value, string $path ): array {
	$account = loyalty_widgets_answer_object( $value, $path );
	$address = loyalty_widgets_answer_optional_object( $account, 'address' );
	// As the elements read them: a property without a key of text is left out, a value not text is ''.
	$properties = array();
	foreach ( is_array( $account['customProperties'] ?? null ) ? $account['customProperties'] : array() as $property ) {
		if ( $property instanceof stdClass && is_string( $property->key ?? null ) ) {
			$properties[] = array(
				'key'   => $property->key,
				'value' => is_string( $property->value ?? null ) ? $property->value : '',
			);
		}
	}
	return array(
		'name'        => loyalty_widgets_answer_string( $account['name'] ?? null, "{$path}.name" ),
		'description' => loyalty_widgets_answer_text( $account, 'description' ),
		'category'    => loyalty_widgets_answer_text( $account, 'category' ),
		'phone'       => loyalty_widgets_answer_text( $account, 'phoneNumber' ),
		'website'     => loyalty_widgets_safe_url_parts( loyalty_widgets_answer_text( $account, 'websiteUrl' ) ),
		'logo'        => loyalty_widgets_answer_image( $account['logo'] ?? null ),
		'address'     => null === $address ? null : array(
			'street'     => loyalty_widgets_answer_text( $address, 'streetAddress' ),
			'postalCode' => loyalty_widgets_answer_text( $address, 'postalCode' ),
			'city'       => loyalty_widgets_answer_text( $address, 'city' ),
		),
		'properties'  => $properties,
		// Only an explicit `false` counts as approved.
		'pending'     => false !== ( $account['pending'] ?? null ),
	);
}

/**
 * A page `{ items, nextToken }`: `items`, each read by `$item`, and `more`, whether a next page follows.
 *
 * @param mixed    $value The page.
 * @param string   $path  Its place in the answer.
 * @param callable $item  Reads one item.
 */
function loyalty_widgets_answer_page( $value, string $path, callable $item ): array {
	$page  = loyalty_widgets_answer_object( $value, $path );
	$items = array();
	foreach ( loyalty_widgets_answer_list( $page['items'] ?? null, "{$path}.items" ) as $index => $entry ) {
		$items[] = $item( $entry, "{$path}.items[{$index}]" );
	}
	return array(
		'items' => $items,
		'more'  => '' !== loyalty_widgets_answer_text( $page, 'nextToken' ),
	);
}

/**
 * What a campaign's slide or coupon shows.
 *
 * @param array $campaign The campaign, read.
 * @param bool  $eager    Whether its image paints with the page (the first one) or waits until near.
 */
function loyalty_widgets_campaign_fields( array $campaign, bool $eager ): array {
	$images = $campaign['images'];
	// The rendition the carousel falls back to where `srcset` is not read.
	$fallback = null;
	foreach ( $images as $image ) {
		if ( $image['width'] >= 640 ) {
			$fallback = $image;
			break;
		}
	}
	$fallback = $fallback ?? ( $images ? end( $images ) : null );
	return array(
		'title'       => $campaign['title'],
		'subtitle'    => $campaign['subtitle'],
		'description' => $campaign['description'],
		'price'       => $campaign['price'] ?? '',
		'src'         => $fallback['url'] ?? '',
		'srcset'      => implode( ', ', array_map( static fn( array $image ): string => "{$image['url']} {$image['width']}w", $images ) ),
		'sizes'       => loyalty_widgets_contract()['firstPage']['imageSizes'],
		'loading'     => $eager ? 'eager' : 'lazy',
	);
}

/**
 * What a widget's first page shows, from the proxy's answer (its text).
 *
 * @param string $tag        The widget.
 * @param string $answer     The proxy's JSON answer.
 * @param array  $attributes The mount's attributes by the element's names, as text.
 * @throws UnexpectedValueException For an answer the elements would refuse.
 */
function loyalty_widgets_display_model( string $tag, string $answer, array $attributes ): array {
	$body = json_decode( $answer );
	if ( JSON_ERROR_NONE !== json_last_error() ) {
		loyalty_widgets_refuse( 'body', 'JSON' );
	}
	$data    = loyalty_widgets_answer_object( loyalty_widgets_answer_object( $body, 'body' )['data'] ?? null, 'data' );
	$default = loyalty_widgets_contract()['firstPage']['defaultHeadingLevel'];
	$level   = loyalty_widgets_js_number( $attributes['heading-level'] ?? (string) $default );
	$heading = 'h' . ( floor( $level ) === $level && $level >= 1 && $level <= 6 ? (int) $level : $default );
	switch ( $tag ) {
		case 'campaign-carousel':
			$campaigns = loyalty_widgets_answer_page( $data['campaigns'] ?? null, 'campaigns', 'loyalty_widgets_answer_campaign' )['items'];
			return array(
				'heading' => $heading,
				'items'   => array_map( 'loyalty_widgets_campaign_fields', $campaigns, array_map( static fn( int $index ): bool => 0 === $index, array_keys( $campaigns ) ) ),
			);
		case 'coupon-claim':
			if ( array_key_exists( 'campaign', $data ) && null === $data['campaign'] ) {
				throw new UnexpectedValueException( 'No campaign has this id.' );
			}
			return array( 'heading' => $heading ) + loyalty_widgets_campaign_fields( loyalty_widgets_answer_campaign( $data['campaign'] ?? null, 'campaign' ), true );
		default:
			$category = isset( $attributes['category'] ) ? loyalty_widgets_js_trim( $attributes['category'] ) : '';
			$page     = loyalty_widgets_answer_page( $data['businessAccounts'] ?? null, 'businessAccounts', 'loyalty_widgets_answer_business_account' );
			$items    = array();
			foreach ( $page['items'] as $account ) {
				// As the directory shows them: approved, and of the chosen category, whatever its case.
				if ( $account['pending'] || ( '' !== $category && ! preg_match( '/\A' . preg_quote( $category, '/' ) . '\z/iu', $account['category'] ) ) ) {
					continue;
				}
				$street   = $account['address']['street'] ?? '';
				$locality = null === $account['address'] ? '' : implode( ' ', array_filter( array( $account['address']['postalCode'], $account['address']['city'] ), 'strlen' ) );
				$items[]  = array(
					'name'        => $account['name'],
					'category'    => $account['category'],
					'description' => $account['description'],
					'logo'        => $account['logo'] ?? '',
					'address'     => '' !== $street || '' !== $locality,
					'street'      => $street,
					'locality'    => $locality,
					'twoLines'    => '' !== $street && '' !== $locality,
					'phone'       => $account['phone'],
					'tel'         => loyalty_widgets_tel_href( $account['phone'] ) ?? '',
					'website'     => $account['website']['href'] ?? '',
					'host'        => $account['website']['host'] ?? '',
					'properties'  => array_map(
						static fn( array $property ): array => array(
							'label' => loyalty_widgets_property_label( $property['key'] ),
							'value' => $property['value'],
						),
						$account['properties']
					),
				);
			}
			return array(
				'heading' => $heading,
				// The element then shows its button for the next page.
				'more'    => $page['more'],
				'items'   => $items,
			);
	}
}
