<?php
/**
 * The URLs a printed first page may hold, as the elements and the Node proxy's renderer take them
 * (src/shared/safe-url.ts): `https:` anywhere, `http:` only for a local address, written as a browser
 * writes the URL back (WHATWG URL's serializer: the scheme and host lower case, the default port
 * left out, dot segments resolved, the characters it escapes percent-encoded), so both renderers print
 * the same bytes. Anything else (`javascript:`, `data:`, a relative path, a host that does not parse)
 * is no URL, and its image or link is left out.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/** Hosts an `http:` URL may name (the sandbox), besides any `*.localhost`. */
const LOYALTY_WIDGETS_LOCAL_HOSTS = array( 'localhost', '127.0.0.1', '[::1]' );

/**
 * `$value` as the URL to print in `src` or `href`, or null when it is not one to print.
 *
 * @param mixed $value What the answer holds.
 */
function loyalty_widgets_safe_url( $value ): ?string {
	$url = loyalty_widgets_safe_url_parts( $value );
	return null === $url ? null : $url['href'];
}

/**
 * A safe URL's `href` and `host` (with its port), or null (see loyalty_widgets_safe_url()).
 *
 * @param mixed $value What the answer holds.
 */
function loyalty_widgets_safe_url_parts( $value ): ?array {
	if ( ! is_string( $value ) || '' === $value || loyalty_widgets_utf16_length( $value ) > 2048 ) {
		return null;
	}
	$url = loyalty_widgets_parse_web_url( $value );
	if ( null === $url ) {
		return null;
	}
	if ( 'http' === $url['scheme'] && ! in_array( $url['hostname'], LOYALTY_WIDGETS_LOCAL_HOSTS, true ) && ! str_ends_with( $url['hostname'], '.localhost' ) ) {
		return null;
	}
	return $url;
}

/**
 * A string's length in UTF-16 code units, as JavaScript counts it.
 *
 * @param string $text UTF-8 text.
 */
function loyalty_widgets_utf16_length( string $text ): int {
	return (int) ( strlen( (string) iconv( 'UTF-8', 'UTF-16LE', $text ) ) / 2 );
}

/**
 * Percent-encodes, as UTF-8 bytes, every character that is a C0 control, above `~`, or in `$more`.
 *
 * @param string $text The component.
 * @param string $more The ASCII characters its encode set adds.
 */
function loyalty_widgets_percent_encode( string $text, string $more ): string {
	return (string) preg_replace_callback(
		'/[\x00-\x1f\x7f-\xff' . preg_quote( $more, '/' ) . ']/',
		static fn( array $byte ): string => sprintf( '%%%02X', ord( $byte[0] ) ),
		$text
	);
}

/** The characters WHATWG URL's encode sets add to the C0 controls, by component. */
const LOYALTY_WIDGETS_URL_ENCODE = array(
	'fragment' => ' "<>`',
	'query'    => ' "#<>\'',
	'path'     => ' "#<>?`{}',
	'userinfo' => ' "#<>?`{}/:;=@[\\]^|',
);

/**
 * An `http:` or `https:` URL parsed and serialized as WHATWG URL does (no base): `{ scheme, hostname,
 * host, href }`, or null when it does not parse or has another scheme.
 *
 * @param string $input The URL.
 */
function loyalty_widgets_parse_web_url( string $input ): ?array {
	$input = str_replace( array( "\t", "\n", "\r" ), '', trim( $input, "\x00..\x20" ) );
	if ( ! preg_match( '/^([A-Za-z][A-Za-z0-9+.\-]*):(.*)$/s', $input, $match ) ) {
		return null;
	}
	$scheme = strtolower( $match[1] );
	if ( 'https' !== $scheme && 'http' !== $scheme ) {
		return null;
	}
	// A special URL's authority starts after any number of slashes, either way round.
	$rest = ltrim( $match[2], '/\\' );
	$end  = strcspn( $rest, '/\\?#' );
	$auth = substr( $rest, 0, $end );
	$rest = substr( $rest, $end );

	$userinfo = '';
	$at       = strrpos( $auth, '@' );
	if ( false !== $at ) {
		list( $username, $password ) = array_pad( explode( ':', substr( $auth, 0, $at ), 2 ), 2, null );
		$username                    = loyalty_widgets_percent_encode( $username, LOYALTY_WIDGETS_URL_ENCODE['userinfo'] );
		$password                    = null === $password ? '' : loyalty_widgets_percent_encode( $password, LOYALTY_WIDGETS_URL_ENCODE['userinfo'] );
		if ( '' !== $username || '' !== $password ) {
			$userinfo = $username . ( '' === $password ? '' : ':' . $password ) . '@';
		}
		$auth = substr( $auth, $at + 1 );
	}
	// The port follows the first colon outside an IPv6 address's brackets.
	$colon = '[' === ( $auth[0] ?? '' ) ? strpos( $auth, ':', (int) strpos( $auth, ']' ) ) : strpos( $auth, ':' );
	$port  = '';
	if ( false !== $colon ) {
		$port = substr( $auth, $colon + 1 );
		$auth = substr( $auth, 0, $colon );
		if ( ! preg_match( '/^\d*$/', $port ) ) {
			return null;
		}
		if ( '' !== $port ) {
			$number = (int) ltrim( $port, '0' );
			if ( strlen( ltrim( $port, '0' ) ) > 5 || $number > 65535 ) {
				return null;
			}
			$port = ( 'https' === $scheme ? 443 : 80 ) === $number ? '' : (string) $number;
		}
	}
	$hostname = loyalty_widgets_url_host( $auth );
	if ( null === $hostname ) {
		return null;
	}

	$fragment = null;
	$hash     = strpos( $rest, '#' );
	if ( false !== $hash ) {
		$fragment = loyalty_widgets_percent_encode( substr( $rest, $hash + 1 ), LOYALTY_WIDGETS_URL_ENCODE['fragment'] );
		$rest     = substr( $rest, 0, $hash );
	}
	$query    = null;
	$question = strpos( $rest, '?' );
	if ( false !== $question ) {
		$query = loyalty_widgets_percent_encode( substr( $rest, $question + 1 ), LOYALTY_WIDGETS_URL_ENCODE['query'] );
		$rest  = substr( $rest, 0, $question );
	}

	$host = $hostname . ( '' === $port ? '' : ':' . $port );
	return array(
		'scheme'   => $scheme,
		'hostname' => $hostname,
		'host'     => $host,
		'href'     => "{$scheme}://{$userinfo}{$host}" . loyalty_widgets_url_path( $rest )
			. ( null === $query ? '' : '?' . $query ) . ( null === $fragment ? '' : '#' . $fragment ),
	);
}

/**
 * A special URL's path: segments split at `/` or `\`, `.` and `..` (also percent-encoded) resolved.
 *
 * @param string $path What follows the host, before the query.
 */
function loyalty_widgets_url_path( string $path ): string {
	$segments = '' === $path ? array( '' ) : array_slice( preg_split( '~[/\\\\]~', $path ), 1 );
	$resolved = array();
	$last     = count( $segments ) - 1;
	foreach ( $segments as $index => $segment ) {
		$segment = loyalty_widgets_percent_encode( $segment, LOYALTY_WIDGETS_URL_ENCODE['path'] );
		$dots    = strtolower( str_replace( array( '%2e', '%2E' ), '.', $segment ) );
		if ( '..' === $dots ) {
			array_pop( $resolved );
		}
		if ( '..' === $dots || '.' === $dots ) {
			if ( $index === $last ) {
				$resolved[] = '';
			}
			continue;
		}
		$resolved[] = $segment;
	}
	return '/' . implode( '/', $resolved );
}

/**
 * A special URL's host as WHATWG URL writes it: an IPv6 address compressed in brackets, an IPv4
 * address in any of its notations as four decimals, a domain lower case; null when it does not parse.
 * A domain that is not plain ASCII, or has a `xn--` label, goes through IDNA (PHP's intl) when the
 * site has it, and is no host otherwise.
 *
 * @param string $text The host as written.
 */
function loyalty_widgets_url_host( string $text ): ?string {
	if ( '' === $text ) {
		return null;
	}
	if ( '[' === $text[0] ) {
		return str_ends_with( $text, ']' ) ? loyalty_widgets_url_ipv6( substr( $text, 1, -1 ) ) : null;
	}
	$domain = rawurldecode( $text );
	if ( ! preg_match( '//u', $domain ) ) {
		return null;
	}
	if ( preg_match( '/[^\x00-\x7f]|(^|\.)xn--/i', $domain ) ) {
		if ( ! function_exists( 'idn_to_ascii' ) ) {
			return null;
		}
		$domain = idn_to_ascii( $domain, IDNA_NONTRANSITIONAL_TO_ASCII | IDNA_CHECK_BIDI | IDNA_CHECK_CONTEXTJ, INTL_IDNA_VARIANT_UTS46 );
		if ( ! is_string( $domain ) ) {
			return null;
		}
	}
	$domain = strtolower( $domain );
	// The forbidden domain code points.
	if ( '' === $domain || preg_match( '~[\x00-\x20\x7f#%/:<>?@\[\\\\\]^|]~', $domain ) ) {
		return null;
	}
	$labels = explode( '.', $domain );
	if ( '' === end( $labels ) && count( $labels ) > 1 ) {
		array_pop( $labels );
	}
	$last = end( $labels );
	if ( preg_match( '/^(\d+|0x[0-9a-f]*)$/', $last ) ) {
		return loyalty_widgets_url_ipv4( $domain );
	}
	return $domain;
}

/**
 * An IPv4 address in WHATWG URL's notations (decimal, octal with a leading 0, hex with 0x; one to four
 * parts, the last filling the rest) as four decimals; null when it is not one.
 *
 * @param string $text The host, lower case.
 */
function loyalty_widgets_url_ipv4( string $text ): ?string {
	$parts = explode( '.', $text );
	if ( '' === end( $parts ) && count( $parts ) > 1 ) {
		array_pop( $parts );
	}
	if ( count( $parts ) > 4 ) {
		return null;
	}
	$numbers = array();
	foreach ( $parts as $part ) {
		if ( preg_match( '/^0x([0-9a-f]*)$/', $part, $hex ) ) {
			$digits = ltrim( $hex[1], '0' );
			$number = strlen( $digits ) > 8 ? INF : ( '' === $digits ? 0 : hexdec( $digits ) );
		} elseif ( preg_match( '/^0([0-7]*)$/', $part, $octal ) ) {
			$digits = ltrim( $octal[1], '0' );
			$number = strlen( $digits ) > 11 ? INF : ( '' === $digits ? 0 : octdec( $digits ) );
		} elseif ( preg_match( '/^[1-9]\d*$/', $part ) ) {
			$number = strlen( $part ) > 10 ? INF : (float) $part;
		} else {
			return null;
		}
		$numbers[] = $number;
	}
	$last = array_pop( $numbers );
	foreach ( $numbers as $number ) {
		if ( $number > 255 ) {
			return null;
		}
	}
	if ( $last >= 256 ** ( 4 - count( $numbers ) ) ) {
		return null;
	}
	$address = (int) $last;
	foreach ( $numbers as $index => $number ) {
		$address += (int) $number * 256 ** ( 3 - $index );
	}
	return long2ip( $address );
}

/**
 * An IPv6 address as WHATWG URL writes it: in brackets, lower-case hex pieces without leading zeros,
 * the first longest run of two or more zero pieces as `::`; null when it is not one.
 *
 * @param string $text The address between the brackets.
 */
function loyalty_widgets_url_ipv6( string $text ): ?string {
	// WHATWG URL takes no zone, and an embedded IPv4 address only as four decimals without leading zeros.
	if ( preg_match( '/[^0-9a-f:.]/i', $text ) ) {
		return null;
	}
	if ( str_contains( $text, '.' ) ) {
		$ipv4 = substr( $text, (int) strrpos( $text, ':' ) + 1 );
		if ( ! preg_match( '/^(0|[1-9]\d{0,2})(\.(0|[1-9]\d{0,2})){3}$/', $ipv4 ) || max( array_map( 'intval', explode( '.', $ipv4 ) ) ) > 255 ) {
			return null;
		}
	}
	$packed = inet_pton( $text );
	if ( false === $packed || 16 !== strlen( $packed ) ) {
		return null;
	}
	$pieces = array_values( unpack( 'n8', $packed ) );
	$best   = array( -1, 1 );
	for ( $start = 0; $start < 8; $start++ ) {
		$length = 0;
		while ( $start + $length < 8 && 0 === $pieces[ $start + $length ] ) {
			++$length;
		}
		if ( $length > $best[1] ) {
			$best = array( $start, $length );
		}
	}
	$hex = array_map( 'dechex', $pieces );
	if ( $best[0] < 0 ) {
		return '[' . implode( ':', $hex ) . ']';
	}
	return '[' . implode( ':', array_slice( $hex, 0, $best[0] ) ) . '::' . implode( ':', array_slice( $hex, $best[0] + $best[1] ) ) . ']';
}
