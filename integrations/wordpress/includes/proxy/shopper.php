<?php
/**
 * The signed-in shopper of a members-only coupon request, checked as the Node proxy's
 * `verifyShopper` checks it: the ID token's RS256 signature against Connect's keys (its discovery's
 * `jwks_uri`, through PHP's openssl), `iss`, `aud`/`azp` equal to the app id (an access token alone
 * does not say which app it belongs to), `exp`, `iat`, `at_hash` of the access token; then Connect's
 * `/me`, whose `sub` must be the ID token's. Discovery and keys are cached for an hour (an unknown
 * `kid` fetches the keys again, at most once per 30 s), `/me` answers under the access token's SHA-256.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

const LOYALTY_WIDGETS_CLOCK_SKEW_SECONDS = 60;

/**
 * A refusal: 401 `invalid_token` or `signin_required`, with the Bearer challenge.
 *
 * @param string $code    `invalid_token` or `signin_required`.
 * @param string $message Why.
 */
function loyalty_widgets_signin_refused( string $code, string $message ): Loyalty_Widgets_Proxy_Error {
	$challenge = 'Bearer realm="loyalty-proxy"' . ( 'invalid_token' === $code ? ', error="invalid_token"' : '' );
	return new Loyalty_Widgets_Proxy_Error( 401, $code, $message, array( 'www-authenticate' => $challenge ) );
}

/**
 * Connect could not be asked: 502 `connect_unavailable`.
 *
 * @param string $message Why.
 */
function loyalty_widgets_connect_unavailable( string $message ): Loyalty_Widgets_Proxy_Error {
	return new Loyalty_Widgets_Proxy_Error( 502, 'connect_unavailable', $message );
}

/**
 * A JSON document from Connect, or null.
 *
 * @param string $url        Where.
 * @param int    $timeout_ms How long to wait.
 * @param int    $max_bytes  The largest answer read.
 */
function loyalty_widgets_connect_json( string $url, int $timeout_ms, int $max_bytes = 262144 ): ?array {
	$response = wp_remote_get(
		$url,
		array(
			'timeout'             => max( 0.001, $timeout_ms / 1000 ),
			'redirection'         => 0,
			'limit_response_size' => $max_bytes,
			'headers'             => array( 'accept' => 'application/json' ),
		)
	);
	if ( is_wp_error( $response ) || 200 !== wp_remote_retrieve_response_code( $response ) ) {
		return null;
	}
	$json = json_decode( wp_remote_retrieve_body( $response ), true );
	return is_array( $json ) ? $json : null;
}

/**
 * Connect's issuer, announced algorithms and keys, cached for an hour.
 *
 * @param array $config      The proxy's settings.
 * @param bool  $reload_keys Fetch the keys again (an unknown `kid`), at most once per 30 s.
 * @throws Loyalty_Widgets_Proxy_Error When Connect cannot be read.
 */
function loyalty_widgets_connect_provider( array $config, bool $reload_keys = false ): array {
	$authority = untrailingslashit( $config['connect_url'] );
	$name      = 'loyalty_widgets_connect_' . md5( $authority );
	$provider  = get_transient( $name );
	$now       = time();
	if ( ! is_array( $provider ) || $reload_keys && $now - $provider['keys_at'] >= 30 ) {
		$discovery = loyalty_widgets_connect_json( $authority . '/.well-known/openid-configuration', $config['timeout_ms'] );
		if ( null === $discovery ) {
			throw loyalty_widgets_connect_unavailable( "Connect discovery could not be read from {$authority}/.well-known/openid-configuration." );
		}
		$issuer = $discovery['issuer'] ?? null;
		if ( ! is_string( $issuer ) || untrailingslashit( $issuer ) !== $authority ) {
			throw loyalty_widgets_connect_unavailable( 'Connect announces another issuer than its authority.' );
		}
		$jwks_uri = $discovery['jwks_uri'] ?? null;
		$jwks     = is_string( $jwks_uri ) && null !== loyalty_widgets_web_url( $jwks_uri ) ? loyalty_widgets_connect_json( $jwks_uri, $config['timeout_ms'] ) : null;
		if ( null === $jwks || ! is_array( $jwks['keys'] ?? null ) ) {
			throw loyalty_widgets_connect_unavailable( 'Connect\'s signing keys could not be read.' );
		}
		$announced = $discovery['id_token_signing_alg_values_supported'] ?? null;
		$provider  = array(
			'issuer'     => $issuer,
			'algorithms' => is_array( $announced ) ? array_values( array_filter( $announced, 'is_string' ) ) : array( 'RS256' ),
			'keys'       => array_values( array_filter( $jwks['keys'], 'is_array' ) ),
			'keys_at'    => $now,
		);
		set_transient( $name, $provider, HOUR_IN_SECONDS );
	}
	return $provider;
}

/**
 * DER length bytes.
 *
 * @param int $length The length.
 */
function loyalty_widgets_der_length( int $length ): string {
	if ( $length < 128 ) {
		return chr( $length );
	}
	$bytes = ltrim( pack( 'N', $length ), "\0" );
	return chr( 0x80 | strlen( $bytes ) ) . $bytes;
}

/**
 * A DER element.
 *
 * @param string $tag      Its tag byte.
 * @param string $contents Its contents.
 */
function loyalty_widgets_der( string $tag, string $contents ): string {
	return $tag . loyalty_widgets_der_length( strlen( $contents ) ) . $contents;
}

/**
 * An RSA public key (JWK `n`, `e`) as PEM, for openssl_verify.
 *
 * @param array $jwk The key.
 */
function loyalty_widgets_rsa_pem( array $jwk ): ?string {
	$n = is_string( $jwk['n'] ?? null ) ? loyalty_widgets_from_base64url( $jwk['n'] ) : null;
	$e = is_string( $jwk['e'] ?? null ) ? loyalty_widgets_from_base64url( $jwk['e'] ) : null;
	if ( null === $n || null === $e || '' === $n || '' === $e ) {
		return null;
	}
	$integer = static function ( string $bytes ): string {
		$bytes = ltrim( $bytes, "\0" );
		return loyalty_widgets_der( "\x02", ( '' === $bytes || ord( $bytes[0] ) > 0x7f ? "\0" : '' ) . $bytes );
	};
	$rsa  = loyalty_widgets_der( "\x30", $integer( $n ) . $integer( $e ) );
	$spki = loyalty_widgets_der( "\x30", hex2bin( '300d06092a864886f70d0101010500' ) . loyalty_widgets_der( "\x03", "\0" . $rsa ) );
	return "-----BEGIN PUBLIC KEY-----\n" . chunk_split( base64_encode( $spki ), 64, "\n" ) . "-----END PUBLIC KEY-----\n"; // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode
}

/**
 * The key a token names, or null.
 *
 * @param array       $keys The key set.
 * @param string|null $kid  The token's key id.
 */
function loyalty_widgets_signing_key( array $keys, ?string $kid ): ?array {
	$usable = array_values( array_filter( $keys, static fn( $key ) => 'RSA' === ( $key['kty'] ?? null ) && ( $key['use'] ?? 'sig' ) === 'sig' ) );
	if ( null === $kid ) {
		return 1 === count( $usable ) ? $usable[0] : null;
	}
	foreach ( $usable as $key ) {
		if ( ( $key['kid'] ?? null ) === $kid ) {
			return $key;
		}
	}
	return null;
}

/**
 * The claims of an ID token that passes every check, in the Node proxy's order: algorithm,
 * signature, `iss`, `aud`, `exp`, `iat`, `azp`, `sub`, `at_hash`.
 *
 * @param array  $config       The proxy's settings.
 * @param string $id_token     The ID token.
 * @param string $access_token The access token it came with.
 * @throws Loyalty_Widgets_Proxy_Error When a check refuses it.
 */
function loyalty_widgets_check_id_token( array $config, string $id_token, string $access_token ): array {
	$parts  = explode( '.', $id_token );
	$header = 3 === count( $parts ) ? json_decode( (string) loyalty_widgets_from_base64url( $parts[0] ), true ) : null;
	if ( ! is_array( $header ) ) {
		throw loyalty_widgets_signin_refused( 'invalid_token', 'The ID token is not a signed JWT.' );
	}
	$provider = loyalty_widgets_connect_provider( $config );
	$alg      = $header['alg'] ?? null;
	// Only RS256 (what Connect signs with): never `none`, never HMAC, whose "key" could be the public key.
	if ( 'RS256' !== $alg || ! in_array( $alg, $provider['algorithms'], true ) ) {
		throw loyalty_widgets_signin_refused( 'invalid_token', 'The ID token algorithm is not RS256 as the provider announces.' );
	}
	$kid = is_string( $header['kid'] ?? null ) ? $header['kid'] : null;
	$key = loyalty_widgets_signing_key( $provider['keys'], $kid );
	if ( null === $key ) {
		$provider = loyalty_widgets_connect_provider( $config, true );
		$key      = loyalty_widgets_signing_key( $provider['keys'], $kid );
	}
	$pem       = null === $key ? null : loyalty_widgets_rsa_pem( $key );
	$signature = loyalty_widgets_from_base64url( $parts[2] );
	if ( null === $pem || null === $signature || 1 !== openssl_verify( $parts[0] . '.' . $parts[1], $signature, $pem, OPENSSL_ALGO_SHA256 ) ) {
		throw loyalty_widgets_signin_refused( 'invalid_token', 'The ID token was refused: its signature does not verify with Connect\'s keys.' );
	}
	$claims = json_decode( (string) loyalty_widgets_from_base64url( $parts[1] ), true );
	$now    = time();
	$skew   = LOYALTY_WIDGETS_CLOCK_SKEW_SECONDS;
	$aud    = $claims['aud'] ?? null;
	$client = $config['client_id'];
	$checks = array(
		'The ID token was refused: it is not a JSON object.'             => is_array( $claims ),
		'The ID token was refused: unexpected "iss" claim value.'        => is_array( $claims ) && ( $claims['iss'] ?? null ) === $provider['issuer'],
		'The ID token was refused: unexpected "aud" claim value.'        => $aud === $client || is_array( $aud ) && in_array( $client, $aud, true ),
		'The ID token was refused: "exp" claim timestamp check failed.'  => is_array( $claims ) && is_numeric( $claims['exp'] ?? null ) && $claims['exp'] > $now - $skew,
		'The ID token was issued in the future (iat).'                   => is_array( $claims ) && is_numeric( $claims['iat'] ?? null ) && $claims['iat'] <= $now + $skew,
		'The ID token has several audiences and its authorized party (azp) is not this client.' => ! ( is_array( $aud ) && count( $aud ) > 1 && ( $claims['azp'] ?? null ) !== $client ),
		'The ID token was issued to another authorized party (azp).'     => ! isset( $claims['azp'] ) || $claims['azp'] === $client,
		'The ID token has no subject (sub).'                             => is_string( $claims['sub'] ?? null ) && '' !== $claims['sub'],
		'The ID token at_hash is missing or does not match the access token.' => is_string( $claims['at_hash'] ?? null ) && hash_equals( loyalty_widgets_base64url( substr( hash( 'sha256', $access_token, true ), 0, 16 ) ), $claims['at_hash'] ),
	);
	foreach ( $checks as $message => $passed ) {
		if ( ! $passed ) {
			throw loyalty_widgets_signin_refused( 'invalid_token', $message );
		}
	}
	return $claims;
}

/**
 * The shopper of a coupon request: `{ sub, loyalty_id }`. `$before_asking` runs before a call to
 * Connect's `/me` (an access token not seen lately), to count it against the address's limit.
 *
 * @param array           $config        The proxy's settings.
 * @param WP_REST_Request $request       The request.
 * @param callable        $before_asking Counts a call to Connect.
 * @throws Loyalty_Widgets_Proxy_Error 401 when the tokens are missing or refused, 502 when Connect cannot be asked.
 */
function loyalty_widgets_verify_shopper( array $config, WP_REST_Request $request, callable $before_asking ): array {
	$limits = loyalty_widgets_contract()['signin'];
	$header = (string) $request->get_header( 'authorization' );
	if ( '' === $header ) {
		throw loyalty_widgets_signin_refused( 'signin_required', 'Sign in to request a coupon.' );
	}
	if ( ! preg_match( '/^Bearer +(\S+)$/i', trim( $header ), $match ) ) {
		throw loyalty_widgets_signin_refused( 'invalid_token', 'The Authorization header must be "Bearer <access token>".' );
	}
	$access_token = $match[1];
	$id_token     = trim( (string) $request->get_header( 'x-loyalty-id-token' ) );
	if ( '' === $id_token ) {
		throw loyalty_widgets_signin_refused( 'invalid_token', 'Send the ID token of the sign-in in the X-Loyalty-Id-Token header, beside the access token.' );
	}
	foreach ( array( 'access token' => array( $access_token, $limits['maxAccessTokenLength'] ), 'ID token' => array( $id_token, $limits['maxIdTokenLength'] ) ) as $name => list( $token, $max ) ) {
		if ( strlen( $token ) > $max || ! preg_match( '/^[\x21-\x7e]+$/', $token ) ) {
			throw loyalty_widgets_signin_refused( 'invalid_token', "The {$name} is malformed." );
		}
	}
	$claims = loyalty_widgets_check_id_token( $config, $id_token, $access_token );
	$name   = 'loyalty_widgets_me_' . hash( 'sha256', $access_token );
	$kept   = get_transient( $name );
	if ( ! is_array( $kept ) ) {
		$before_asking();
		$kept = loyalty_widgets_ask_connect( $config, $access_token, $claims, $name );
	}
	if ( isset( $kept['refused'] ) ) {
		throw loyalty_widgets_signin_refused( 'invalid_token', $kept['refused'] );
	}
	if ( $kept['sub'] !== $claims['sub'] ) {
		throw loyalty_widgets_signin_refused( 'invalid_token', 'The access token belongs to another shopper than the ID token.' );
	}
	return array(
		'sub'        => $kept['sub'],
		'loyalty_id' => $kept['loyaltyId'],
	);
}

/**
 * Connect's `/me` for an access token, kept until the token expires (at most an hour), refusals a minute.
 *
 * @param array  $config The proxy's settings.
 * @param string $token  The access token.
 * @param array  $claims The ID token's claims.
 * @param string $name   Where the answer is kept.
 * @throws Loyalty_Widgets_Proxy_Error When Connect cannot be asked.
 */
function loyalty_widgets_ask_connect( array $config, string $token, array $claims, string $name ): array {
	$limits   = loyalty_widgets_contract()['signin'];
	$url      = add_query_arg( 'access_token', rawurlencode( $token ), untrailingslashit( $config['connect_url'] ) . '/me' );
	$response = wp_remote_get(
		$url,
		array(
			'timeout'             => max( 0.001, $config['timeout_ms'] / 1000 ),
			'redirection'         => 0,
			'limit_response_size' => 65536,
			'headers'             => array( 'accept' => 'application/json' ),
		)
	);
	if ( is_wp_error( $response ) ) {
		throw loyalty_widgets_connect_unavailable( 'Connect could not be reached to check the sign-in.' );
	}
	$status  = (int) wp_remote_retrieve_response_code( $response );
	$refusal = static function ( string $reason ) use ( $name, $limits ): array {
		$kept = array( 'refused' => $reason );
		set_transient( $name, $kept, (int) ceil( $limits['refusedTtlMs'] / 1000 ) );
		return $kept;
	};
	if ( in_array( $status, array( 400, 401, 403 ), true ) ) {
		return $refusal( 'Connect does not know the access token (expired or revoked).' );
	}
	$profile = json_decode( wp_remote_retrieve_body( $response ), true );
	if ( 200 > $status || 299 < $status || ! is_array( $profile ) ) {
		throw loyalty_widgets_connect_unavailable( "Connect answered the sign-in check with HTTP {$status}." );
	}
	$sub        = is_string( $profile['sub'] ?? null ) && strlen( $profile['sub'] ) <= 256 ? $profile['sub'] : null;
	$loyalty_id = is_string( $profile['loyaltyId'] ?? null ) && strlen( $profile['loyaltyId'] ) <= 256 ? $profile['loyaltyId'] : null;
	$lifetime   = min( (int) $claims['exp'] - time(), (int) floor( $limits['maxProfileTtlMs'] / 1000 ) );
	if ( is_numeric( $profile['exp'] ?? null ) ) {
		$lifetime = min( $lifetime, (int) $profile['exp'] - time() );
	} elseif ( is_numeric( $profile['expires_in'] ?? null ) ) {
		$lifetime = min( $lifetime, (int) $profile['expires_in'] );
	}
	if ( null === $sub ) {
		return $refusal( 'Connect answered /me without saying whose profile it is (sub).' );
	}
	if ( null === $loyalty_id ) {
		return $refusal( 'The sign-in was made without the profile scope: Connect gives no loyalty ID for it.' );
	}
	if ( $lifetime <= 0 ) {
		return $refusal( 'The access token has expired.' );
	}
	$kept = array(
		'sub'       => $sub,
		'loyaltyId' => $loyalty_id,
	);
	set_transient( $name, $kept, $lifetime );
	return $kept;
}
