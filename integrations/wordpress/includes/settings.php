<?php
/**
 * The merchant's settings (Settings → Loyalty widgets), kept in one option, and their checks.
 *
 * Only these decide where shoppers' tokens go and where sign-in happens: the elements read them from
 * the metas this plugin prints in <head> and from the attributes its blocks render, never from what
 * an editor writes in a post.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

const LOYALTY_WIDGETS_OPTION = 'loyalty_widgets_settings';

/** The settings as saved, each a string ('' when not set). */
function loyalty_widgets_stored_settings(): array {
	$defaults = array(
		'authority'         => '',
		'client_id'         => '',
		'endpoint'          => '',
		'token_origins'     => '',
		'currency'          => '',
		'language'          => '',
		'marketing_url'     => '',
		'members_campaigns' => '',
		'proxy_origins'     => '',
		'launcher'          => '',
		'launcher_label'    => '',
	);
	$stored   = get_option( LOYALTY_WIDGETS_OPTION, array() );
	$settings = $defaults;
	foreach ( $defaults as $key => $unused ) {
		if ( is_array( $stored ) && isset( $stored[ $key ] ) && is_string( $stored[ $key ] ) ) {
			$settings[ $key ] = $stored[ $key ];
		}
	}
	return $settings;
}

/** The settings in effect: as saved, the endpoint by default this site's own proxy route. */
function loyalty_widgets_settings(): array {
	$settings = loyalty_widgets_stored_settings();
	if ( '' === $settings['endpoint'] ) {
		$settings['endpoint'] = loyalty_widgets_default_endpoint();
	}
	return $settings;
}

/** The bare sign-in callback's address: the redirect URI to register at Connect. */
function loyalty_widgets_callback_url(): string {
	return add_query_arg( 'loyalty-widgets-callback', '1', home_url( '/' ) );
}

/** Whether a host is this machine, where plain http is allowed (as the elements allow it). */
function loyalty_widgets_is_loopback( string $host ): bool {
	return in_array( strtolower( trim( $host, '[]' ) ), array( 'localhost', '127.0.0.1', '::1' ), true );
}

/**
 * An absolute https URL (http on this machine) without credentials, or null.
 *
 * @param string $value What was typed.
 */
function loyalty_widgets_web_url( string $value ): ?string {
	$value = trim( $value );
	if ( '' === $value || preg_match( '/[\s<>"\'`\\\\]/', $value ) ) {
		return null;
	}
	$parts = wp_parse_url( $value );
	if ( ! is_array( $parts ) || empty( $parts['scheme'] ) || empty( $parts['host'] ) || isset( $parts['user'] ) || isset( $parts['pass'] ) ) {
		return null;
	}
	$scheme = strtolower( $parts['scheme'] );
	if ( 'https' !== $scheme && ! ( 'http' === $scheme && loyalty_widgets_is_loopback( $parts['host'] ) ) ) {
		return null;
	}
	return esc_url_raw( $value, array( 'http', 'https' ) );
}

/**
 * The origin of an absolute URL as a browser writes it (scheme://host[:port]: the host lowercased
 * and, when not ASCII, in punycode; no default port), so it matches the page's `location.origin`;
 * or null.
 *
 * @param string $value A URL or an origin.
 */
function loyalty_widgets_origin( string $value ): ?string {
	$url = loyalty_widgets_web_url( $value );
	if ( null === $url ) {
		return null;
	}
	$parts  = wp_parse_url( $url );
	$scheme = strtolower( $parts['scheme'] );
	$host   = loyalty_widgets_ascii_host( $parts['host'] );
	$port   = isset( $parts['port'] ) ? (int) $parts['port'] : null;
	if ( null === $host ) {
		return null;
	}
	return $scheme . '://' . $host . ( null !== $port && ( 'https' === $scheme ? 443 : 80 ) !== $port ? ':' . $port : '' );
}

/**
 * A typed list of origins (spaces or commas between them), read: the origins as a browser writes
 * them, and the entries that are not origins, as typed.
 *
 * @param string $text What the administrator typed.
 * @return array{0: string[], 1: string[]} The origins, and the entries refused.
 */
function loyalty_widgets_origin_list( string $text ): array {
	$origins = array();
	$bad     = array();
	foreach ( loyalty_widgets_list( $text ) as $entry ) {
		$origin = loyalty_widgets_origin( $entry );
		if ( null === $origin ) {
			$bad[] = $entry;
		} else {
			$origins[] = $origin;
		}
	}
	return array( $origins, $bad );
}

/**
 * A host as a browser's URL parser gives it: lowercased, each label that is not ASCII in punycode
 * (`BÜCHER.example` → `xn--bcher-kva.example`). Through intl's idn_to_ascii() where PHP has it;
 * otherwise lowercased here (mbstring where present, else the Latin, Greek, Cyrillic and Armenian
 * letters) and encoded per RFC 3492. Null for a host this cannot write as a browser would (a capital
 * letter left, or intl refusing it): the merchant is then asked for the host in lowercase or punycode.
 *
 * @param string $host The host of a parsed URL.
 */
function loyalty_widgets_ascii_host( string $host ): ?string {
	if ( ! preg_match( '/[^\x00-\x7f]/', $host ) ) {
		return strtolower( $host );
	}
	if ( function_exists( 'idn_to_ascii' ) ) {
		$ascii = idn_to_ascii( $host, IDNA_NONTRANSITIONAL_TO_ASCII, INTL_IDNA_VARIANT_UTS46 );
		return is_string( $ascii ) ? strtolower( $ascii ) : null;
	}
	$lower = function_exists( 'mb_strtolower' ) ? mb_strtolower( $host, 'UTF-8' ) : preg_replace_callback(
		'/\p{Lu}/u',
		static fn( array $letter ): string => html_entity_decode( '&#' . loyalty_widgets_lowercase_letter( loyalty_widgets_code_points( $letter[0] )[0] ) . ';', ENT_QUOTES | ENT_HTML5, 'UTF-8' ),
		$host
	);
	if ( ! is_string( $lower ) || preg_match( '/[\p{Lu}\p{Lt}]/u', $lower ) ) {
		return null;
	}
	$labels = array();
	foreach ( explode( '.', $lower ) as $label ) {
		$labels[] = preg_match( '/[^\x00-\x7f]/', $label ) ? 'xn--' . loyalty_widgets_punycode( loyalty_widgets_code_points( $label ) ) : $label;
	}
	return implode( '.', $labels );
}

/**
 * The code points of a UTF-8 string.
 *
 * @param string $text Valid UTF-8.
 * @return int[]
 */
function loyalty_widgets_code_points( string $text ): array {
	preg_match_all( '/./us', $text, $characters );
	$points = array();
	foreach ( $characters[0] as $character ) {
		$bytes = array_values( unpack( 'C*', $character ) );
		$point = $bytes[0] & ( 0xff >> ( count( $bytes ) > 1 ? count( $bytes ) + 1 : 1 ) );
		foreach ( array_slice( $bytes, 1 ) as $byte ) {
			$point = ( $point << 6 ) | ( $byte & 0x3f );
		}
		$points[] = $point;
	}
	return $points;
}

/**
 * The lowercase of a capital letter of the Latin, Greek, Cyrillic or Armenian alphabets (Unicode's
 * simple case mapping), or the letter itself when it is none of those.
 *
 * @param int $point A code point.
 */
function loyalty_widgets_lowercase_letter( int $point ): int {
	// First, last, what to add, and whether only every other letter (from the first) is a capital.
	$ranges = array(
		array( 0x41, 0x5a, 32, false ),
		array( 0xc0, 0xde, 32, false ),
		array( 0x100, 0x12e, 1, true ),
		array( 0x132, 0x136, 1, true ),
		array( 0x139, 0x147, 1, true ),
		array( 0x14a, 0x176, 1, true ),
		array( 0x179, 0x17d, 1, true ),
		array( 0x386, 0x386, 38, false ),
		array( 0x388, 0x38a, 37, false ),
		array( 0x38c, 0x38c, 64, false ),
		array( 0x38e, 0x38f, 63, false ),
		array( 0x391, 0x3ab, 32, false ),
		array( 0x400, 0x40f, 80, false ),
		array( 0x410, 0x42f, 32, false ),
		array( 0x460, 0x480, 1, true ),
		array( 0x48a, 0x4be, 1, true ),
		array( 0x4c1, 0x4cd, 1, true ),
		array( 0x4d0, 0x52e, 1, true ),
		array( 0x531, 0x556, 48, false ),
		array( 0x1e00, 0x1e94, 1, true ),
		array( 0x1ea0, 0x1efe, 1, true ),
	);
	if ( 0xd7 === $point || 0x3a2 === $point ) {
		return $point; // × and an unassigned code point, amid the capitals.
	}
	if ( 0x178 === $point ) {
		return 0xff; // Ÿ.
	}
	if ( 0x1e9e === $point ) {
		return 0xdf; // ẞ.
	}
	foreach ( $ranges as list( $first, $last, $add, $alternate ) ) {
		if ( $point >= $first && $point <= $last && ( ! $alternate || 0 === ( $point - $first ) % 2 ) ) {
			return $point + $add;
		}
	}
	return $point;
}

/**
 * One label's code points in punycode (RFC 3492), without the `xn--` prefix.
 *
 * @param int[] $input The label's code points.
 */
function loyalty_widgets_punycode( array $input ): string {
	$digit  = static fn( int $value ): string => chr( $value < 26 ? 97 + $value : 22 + $value );
	$adapt  = static function ( int $delta, int $points, bool $first ): int {
		$delta  = intdiv( $delta, $first ? 700 : 2 );
		$delta += intdiv( $delta, $points );
		$k      = 0;
		// 455 is ((36 - 1) * 26) / 2: base, tmin and tmax of RFC 3492.
		while ( $delta > 455 ) {
			$delta = intdiv( $delta, 35 );
			$k    += 36;
		}
		return $k + intdiv( 36 * $delta, $delta + 38 );
	};
	$output = implode( '', array_map( 'chr', array_filter( $input, static fn( int $point ): bool => $point < 0x80 ) ) );
	$basic  = strlen( $output );
	$done   = $basic;
	$output = $basic > 0 ? $output . '-' : $output;
	$n      = 0x80;
	$delta  = 0;
	$bias   = 72;
	while ( $done < count( $input ) ) {
		$next   = min( array_filter( $input, static fn( int $point ): bool => $point >= $n ) );
		$delta += ( $next - $n ) * ( $done + 1 );
		$n      = $next;
		foreach ( $input as $point ) {
			if ( $point < $n ) {
				++$delta;
			} elseif ( $point === $n ) {
				$q = $delta;
				for ( $k = 36; ; $k += 36 ) {
					$t = $k <= $bias ? 1 : ( $k >= $bias + 26 ? 26 : $k - $bias );
					if ( $q < $t ) {
						break;
					}
					$output .= $digit( $t + ( $q - $t ) % ( 36 - $t ) );
					$q       = intdiv( $q - $t, 36 - $t );
				}
				$output .= $digit( $q );
				$bias    = $adapt( $delta, $done + 1, $done === $basic );
				$delta   = 0;
				++$done;
			}
		}
		++$delta;
		++$n;
	}
	return $output;
}

/**
 * The origins the shopper's tokens may go to besides the site's own: the proxy endpoint's, when it
 * is on another origin, and those listed in the settings.
 *
 * @param array $settings The settings.
 */
function loyalty_widgets_token_origins( array $settings ): array {
	$origins = array();
	$own     = loyalty_widgets_origin( home_url( '/' ) );
	if ( '' !== $settings['endpoint'] && ! str_starts_with( $settings['endpoint'], '/' ) ) {
		$origins[] = loyalty_widgets_origin( $settings['endpoint'] );
	}
	foreach ( preg_split( '/[\s,]+/', $settings['token_origins'], -1, PREG_SPLIT_NO_EMPTY ) as $entry ) {
		$origins[] = loyalty_widgets_origin( $entry );
	}
	return array_values( array_unique( array_filter( $origins, static fn( $origin ) => null !== $origin && $origin !== $own ) ) );
}

/**
 * Checks what the settings form sent. A value that does not pass keeps the one saved before and is
 * reported at the top of the page.
 *
 * @param mixed $input The submitted settings.
 */
function loyalty_widgets_sanitize_settings( $input ): array {
	$saved  = loyalty_widgets_stored_settings();
	$input  = is_array( $input ) ? $input : array();
	$clean  = $saved;
	$text   = static fn( string $key ): string => isset( $input[ $key ] ) && is_string( $input[ $key ] ) ? trim( wp_unslash( $input[ $key ] ) ) : '';
	$reject = static function ( string $key, string $message ) {
		add_settings_error( LOYALTY_WIDGETS_OPTION, 'loyalty-widgets-' . $key, $message ); // $message is HTML-safe.
	};

	$authority = $text( 'authority' );
	if ( '' === $authority ) {
		$clean['authority'] = '';
	} elseif ( null !== loyalty_widgets_web_url( $authority ) ) {
		$clean['authority'] = untrailingslashit( loyalty_widgets_web_url( $authority ) );
	} else {
		$reject( 'authority', esc_html__( 'Connect authority: enter the https address of Connect, e.g. https://connect.example.', 'loyalty-widgets' ) );
	}

	$client_id = $text( 'client_id' );
	if ( '' === $client_id || preg_match( '/^[A-Za-z0-9._~:-]{1,200}$/', $client_id ) ) {
		$clean['client_id'] = $client_id;
	} else {
		$reject( 'client_id', esc_html__( 'App id: use the app_id of your app registered at Connect (letters, digits, . _ ~ : -).', 'loyalty-widgets' ) );
	}

	$endpoint = $text( 'endpoint' );
	if ( '' === $endpoint || loyalty_widgets_default_endpoint() === $endpoint ) {
		$clean['endpoint'] = '';
	} elseif ( preg_match( '#^/(?!/)[A-Za-z0-9._~!$&()*+,;=:@%/-]*$#', $endpoint ) ) {
		$clean['endpoint'] = $endpoint;
	} elseif ( null !== loyalty_widgets_web_url( $endpoint ) ) {
		$clean['endpoint'] = loyalty_widgets_web_url( $endpoint );
	} else {
		$reject( 'endpoint', esc_html__( 'Proxy endpoint: enter a path on this site (/api/marketing) or the https address of your Marketing proxy.', 'loyalty-widgets' ) );
	}

	list( $origins, $bad ) = loyalty_widgets_origin_list( $text( 'token_origins' ) );
	if ( $bad ) {
		// WordPress prints settings errors as HTML: what was typed is escaped here.
		/* translators: %s: the values that are not origins. */
		$reject( 'token_origins', sprintf( esc_html__( 'Token origins: these are not https origins: %s', 'loyalty-widgets' ), esc_html( implode( ' ', $bad ) ) ) );
	} else {
		$clean['token_origins'] = implode( ' ', array_unique( $origins ) );
	}

	$currency = strtoupper( $text( 'currency' ) );
	if ( '' === $currency || preg_match( '/^[A-Z]{3}$/', $currency ) ) {
		$clean['currency'] = $currency;
	} else {
		$reject( 'currency', esc_html__( 'Currency: use a three-letter ISO 4217 code, e.g. EUR.', 'loyalty-widgets' ) );
	}

	$language = str_replace( '_', '-', $text( 'language' ) );
	if ( '' === $language || preg_match( '/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/', $language ) ) {
		$clean['language'] = $language;
	} else {
		$reject( 'language', esc_html__( 'Language: use a language tag such as fr or fr-CA, or leave it empty for the page\'s language.', 'loyalty-widgets' ) );
	}

	$marketing_url = $text( 'marketing_url' );
	if ( '' === $marketing_url ) {
		$clean['marketing_url'] = '';
	} elseif ( null !== loyalty_widgets_web_url( $marketing_url ) ) {
		$clean['marketing_url'] = loyalty_widgets_web_url( $marketing_url );
	} else {
		$reject( 'marketing_url', esc_html__( 'Marketing API: enter its https address (http only on localhost, 127.0.0.1 or [::1]).', 'loyalty-widgets' ) );
	}

	$members = loyalty_widgets_list( $text( 'members_campaigns' ) );
	if ( ! array_filter( $members, static fn( string $id ): bool => '*' !== $id && ! preg_match( '/^[^\x00-\x20"<>\\\\]{1,256}$/u', $id ) ) ) {
		$clean['members_campaigns'] = implode( ' ', array_unique( $members ) );
	} else {
		$reject( 'members_campaigns', esc_html__( 'Members-only coupons: list campaign ids separated by spaces, or * for every coupon.', 'loyalty-widgets' ) );
	}

	list( $proxy_origins, $bad ) = loyalty_widgets_origin_list( $text( 'proxy_origins' ) );
	if ( $bad ) {
		/* translators: %s: the values that are not origins. */
		$reject( 'proxy_origins', sprintf( esc_html__( 'Other sites calling the proxy: these are not https origins: %s', 'loyalty-widgets' ), esc_html( implode( ' ', $bad ) ) ) );
	} else {
		$clean['proxy_origins'] = implode( ' ', array_unique( $proxy_origins ) );
	}

	$launcher = $text( 'launcher' );
	if ( '' === $launcher || isset( loyalty_widgets_launcher_corners()[ $launcher ] ) ) {
		$clean['launcher'] = $launcher;
	} else {
		$reject( 'launcher', esc_html__( 'Launcher: choose a corner, or off.', 'loyalty-widgets' ) );
	}

	$label = sanitize_text_field( $text( 'launcher_label' ) );
	if ( mb_strlen( $label, 'UTF-8' ) <= 40 ) {
		$clean['launcher_label'] = $label;
	} else {
		$reject( 'launcher_label', esc_html__( 'Launcher label: at most 40 characters.', 'loyalty-widgets' ) );
	}

	// A wrong address or key is named now, not discovered by a shopper (the doctor's first check).
	if ( is_admin() && '' !== $clean['marketing_url'] ) {
		try {
			$probe = loyalty_widgets_probe_upstream( array( 'url' => $clean['marketing_url'] ) + loyalty_widgets_proxy_config() );
		} catch ( Loyalty_Widgets_Proxy_Error $error ) {
			$probe = array(
				'ok'      => false,
				'message' => __( 'Marketing API: not checked, the plugin\'s contract.json is missing (install the plugin from its zip).', 'loyalty-widgets' ),
			);
		}
		if ( ! $probe['ok'] ) {
			$reject( 'marketing_check', esc_html( $probe['message'] ) );
		}
	}

	return $clean;
}

add_action(
	'init',
	static function () {
		register_setting(
			'loyalty_widgets',
			LOYALTY_WIDGETS_OPTION,
			array(
				'type'              => 'array',
				'sanitize_callback' => 'loyalty_widgets_sanitize_settings',
				'default'           => array(),
				'show_in_rest'      => false,
			)
		);
	}
);
