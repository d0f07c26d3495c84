<?php
/**
 * A coupon request: sign-in when the campaign needs it, the per-address and per-shopper limits, then
 * the mint. With an Idempotency-Key, one mint per key across every PHP worker on the site's database:
 * the first request takes the key (one INSERT on the table's primary key) and counts the limits, the
 * others wait for its recorded answer, which is replayed (`Idempotent-Replayed: true`) for 24 hours.
 * Keys are scoped by shopper, as in the Node proxy.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/** Appended to a recorded answer that may or may not have minted. */
const LOYALTY_WIDGETS_UNCERTAIN_MINT = 'It may have created a coupon, so this Idempotency-Key keeps this answer for 24 hours instead of trying again. To try again anyway, send the request with a new Idempotency-Key (which may give the shopper a second coupon).';

/** What a caller whose key's mint has not answered yet is told: ask again, same key. */
function loyalty_widgets_still_minting(): Loyalty_Widgets_Proxy_Error {
	return new Loyalty_Widgets_Proxy_Error(
		504,
		'upstream_timeout',
		'The Marketing API has not answered yet; the proxy keeps waiting for its answer and records it for this Idempotency-Key. Send the request again with the same Idempotency-Key to receive it.',
		array( 'retry-after' => '1' )
	);
}

/**
 * Whether the request's campaign is for signed-in shoppers only.
 *
 * @param array $config    The proxy's settings.
 * @param array $variables The coupon request's variables.
 */
function loyalty_widgets_needs_signin( array $config, array $variables ): bool {
	if ( '' === $config['connect_url'] || '' === $config['client_id'] ) {
		return false;
	}
	return true === $config['members'] || in_array( loyalty_widgets_campaign_id_key( (string) ( $variables['campaignId'] ?? '' ) ), $config['members'], true );
}

/**
 * A coupon request's answer.
 *
 * @param array           $config    The proxy's settings.
 * @param WP_REST_Request $request   The request.
 * @param string          $name      The operation.
 * @param array           $variables Its variables.
 * @param string          $address   The client's address.
 * @throws Loyalty_Widgets_Proxy_Error Refusals and failures.
 */
function loyalty_widgets_answer_claim( array $config, WP_REST_Request $request, string $name, array $variables, string $address ): array {
	$contract = loyalty_widgets_contract();
	$key      = $request->get_header( 'idempotency-key' );
	if ( null !== $key && ! preg_match( $contract['idempotency']['keyPattern'], $key ) ) {
		throw new Loyalty_Widgets_Proxy_Error( 400, 'bad_request', 'Idempotency-Key must be 1 to 128 printable ASCII characters without spaces.' );
	}
	$limits  = $config['rate_limits'];
	$shopper = loyalty_widgets_needs_signin( $config, $variables )
		? loyalty_widgets_verify_shopper(
			$config,
			$request,
			static function () use ( $address, $limits ) {
				loyalty_widgets_count( "signin:{$address}", $limits['perAddress'] );
			}
		)
		: null;
	$shopper_key = null !== $shopper ? 'id:' . $shopper['loyalty_id'] : 'anon:' . hash( 'sha256', $address . "\n" . (string) $request->get_header( 'user-agent' ) );
	$counters    = array(
		array( "addr:{$address}", $limits['perAddress'] ),
		array( "shopper:{$shopper_key}", $limits['perShopper'] ),
	);
	$headers     = array( 'cache-control' => 'no-store' );
	if ( null === $key ) {
		foreach ( $counters as list( $counter, $rule ) ) {
			loyalty_widgets_count( $counter, $rule );
		}
		list( $status, $body ) = loyalty_widgets_mint( $config, $name, $variables, false );
		return array( $status, $body, $headers );
	}
	$scope                           = null !== $shopper ? $shopper['loyalty_id'] : $shopper_key;
	list( $status, $body, $replayed ) = loyalty_widgets_mint_once( $config, "idem:{$scope}:{$key}", $name . ':' . loyalty_widgets_canonical_variables( $variables ), $counters, $name, $variables );
	if ( $replayed ) {
		$headers['idempotent-replayed'] = 'true';
	}
	return array( $status, $body, $headers );
}

/**
 * The mint: `[ status, body ]`; a failure recorded for a key says what it means.
 *
 * @param array  $config    The proxy's settings.
 * @param string $name      The operation.
 * @param array  $variables Its variables.
 * @param bool   $keyed     With an Idempotency-Key: waited for up to the mint timeout.
 * @param int    $answer_ms With a key: when the caller is told to ask again while the mint goes on.
 * @param callable|null $answer With a key: answers the caller so.
 * @throws Loyalty_Widgets_Proxy_Error Failures.
 */
function loyalty_widgets_mint( array $config, string $name, array $variables, bool $keyed, int $answer_ms = 0, ?callable $answer = null ): array {
	$contract = loyalty_widgets_contract();
	$timeout  = $keyed ? $config['timeout_ms'] * $contract['limits']['mintTimeoutFactor'] : $config['timeout_ms'];
	$exchange = null === $answer ? null : static fn( array $settings, string $document, array $values, int $ms ): array => loyalty_widgets_upstream_exchange_watched( $settings, $document, $values, $ms, $answer_ms, $answer );
	try {
		$answer = loyalty_widgets_fetch_field( $config, $contract['operations'][ $name ]['documents']['plain'], $variables, $name, false, $timeout, $exchange );
		$code   = loyalty_widgets_required( loyalty_widgets_object( loyalty_widgets_object( $answer['value'] )['coupon'] ?? null )['code'] ?? null );
		if ( null === $code ) {
			throw new Loyalty_Widgets_Proxy_Error( 502, 'upstream_error', 'The Marketing API answered without a coupon code.', array(), true );
		}
		return array( 200, loyalty_widgets_json( array( 'data' => array( $name => array( 'coupon' => array( 'code' => $code ) ) ) ) ) );
	} catch ( Loyalty_Widgets_Proxy_Error $error ) {
		if ( 'upstream_error' === $error->error_code ) {
			loyalty_widgets_check_offer( $config, (string) $variables['campaignId'] );
		}
		if ( $keyed && $error->may_have_run && $error->status >= 500 ) {
			throw new Loyalty_Widgets_Proxy_Error( $error->status, $error->error_code, $error->getMessage() . ' ' . LOYALTY_WIDGETS_UNCERTAIN_MINT, $error->headers, true );
		}
		throw $error;
	}
}

/**
 * After a refusal in words the proxy does not know: 422 when the campaign's objective is another kind than a coupon.
 *
 * @param array  $config      The proxy's settings.
 * @param string $campaign_id The campaign.
 * @throws Loyalty_Widgets_Proxy_Error 422 `no_coupon_objective`.
 */
function loyalty_widgets_check_offer( array $config, string $campaign_id ): void {
	try {
		$answer = loyalty_widgets_fetch_field( $config, loyalty_widgets_contract()['operations']['campaign']['documents']['plain'], array( 'id' => $campaign_id ), 'campaign', true, $config['timeout_ms'] );
	} catch ( Loyalty_Widgets_Proxy_Error $error ) {
		return;
	}
	$campaign = null === $answer['value'] ? null : loyalty_widgets_normalize_campaign( $answer['value'] );
	$type     = $campaign['content']['objective']['__typename'] ?? null;
	if ( is_string( $type ) && 'CouponObjective' !== $type ) {
		throw new Loyalty_Widgets_Proxy_Error( 422, 'no_coupon_objective', 'This campaign has no coupon to give.' );
	}
}

/**
 * The mint under its key, once: `[ status, body, replayed ]`.
 *
 * @param array  $config      The proxy's settings.
 * @param string $record      The key's record name (scoped by shopper).
 * @param string $fingerprint The operation and variables the key was used with.
 * @param array  $counters    The limits counted when the key is taken.
 * @param string $name        The operation.
 * @param array  $variables   Its variables.
 * @throws Loyalty_Widgets_Proxy_Error Refusals, and a mint still running past the caller's wait.
 */
function loyalty_widgets_mint_once( array $config, string $record, string $fingerprint, array $counters, string $name, array $variables ): array {
	$rules    = loyalty_widgets_contract()['idempotency'];
	$lock_ttl = $config['timeout_ms'] * ( loyalty_widgets_contract()['limits']['mintTimeoutFactor'] + 1 ) + 5000;
	$deadline = loyalty_widgets_now_ms() + $config['timeout_ms'];
	$pending  = loyalty_widgets_json(
		array(
			'state'       => 'pending',
			'fingerprint' => $fingerprint,
			'until'       => loyalty_widgets_now_ms() + $lock_ttl,
		)
	);
	$claim    = loyalty_widgets_claim_record( $record, $pending, $rules['recordTtlMs'] );
	while ( ! $claim['taken'] ) {
		$held = json_decode( $claim['value'], true );
		if ( ! is_array( $held ) || ( $held['fingerprint'] ?? null ) !== $fingerprint ) {
			throw new Loyalty_Widgets_Proxy_Error( 409, 'idempotency_key_reused', 'This Idempotency-Key was already used with other variables.' );
		}
		if ( 'done' === $held['state'] ) {
			return array( (int) $held['status'], (string) $held['body'], true );
		}
		if ( (int) $held['until'] < loyalty_widgets_now_ms() ) {
			throw new Loyalty_Widgets_Proxy_Error( 504, 'upstream_timeout', 'The request with this Idempotency-Key stopped before its answer was recorded. ' . LOYALTY_WIDGETS_UNCERTAIN_MINT );
		}
		if ( loyalty_widgets_now_ms() >= $deadline ) {
			throw loyalty_widgets_still_minting();
		}
		usleep( 20000 );
		$value = loyalty_widgets_read_record( $record );
		$claim = null === $value ? loyalty_widgets_claim_record( $record, $pending, $rules['recordTtlMs'] ) : array(
			'taken' => false,
			'value' => $value,
		);
	}
	// Taken: the limits are counted now (past one, the key is freed for a retry).
	try {
		foreach ( $counters as list( $counter, $rule ) ) {
			loyalty_widgets_count( $counter, $rule );
		}
	} catch ( Loyalty_Widgets_Proxy_Error $error ) {
		loyalty_widgets_delete_record( $record );
		throw $error;
	}
	// The mint runs on if the shopper leaves, or is told to ask again: its answer is what the key records.
	ignore_user_abort( true );
	$answered = false;
	$answer   = static function () use ( &$answered ) {
		$answered = true;
		loyalty_widgets_answer_now( loyalty_widgets_still_minting() );
	};
	try {
		list( $status, $body ) = loyalty_widgets_mint( $config, $name, $variables, true, max( 0, $deadline - loyalty_widgets_now_ms() ), $answer );
	} catch ( Loyalty_Widgets_Proxy_Error $error ) {
		// Nothing happened upstream and a retry may fare better: the key is freed.
		if ( 429 === $error->status || ! $error->may_have_run && $error->status >= 429 ) {
			loyalty_widgets_delete_record( $record );
			throw $error;
		}
		$status = $error->status;
		$body   = $error->body();
	}
	$ttl  = $status >= 400 && $status < 500 ? $rules['refusalTtlMs'] : $rules['recordTtlMs'];
	$done = loyalty_widgets_json(
		array(
			'state'       => 'done',
			'fingerprint' => $fingerprint,
			'status'      => $status,
			'body'        => $body,
		)
	);
	if ( ! loyalty_widgets_write_record( $record, $done, $ttl ) ) {
		usleep( 20000 );
		// The shopper keeps the coupon even so; the lock stays and answers retries "may have run".
		loyalty_widgets_write_record( $record, $done, $ttl );
	}
	if ( $answered ) {
		exit; // The caller has its answer; WordPress must not send another.
	}
	return array( $status, $body, false );
}
