<?php
/**
 * The built-in operations' answers, as the Node proxy gives them: every record rebuilt field by
 * field (records the widgets cannot show dropped), pages filled from sparse upstream pages, and the
 * proxy's own page cursors, MAC'd so that an edited or made-up cursor is refused before anything is read.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/**
 * A displayable string: anything else gives ''.
 *
 * @param mixed $value The value.
 */
function loyalty_widgets_text( $value ): string {
	return is_string( $value ) ? $value : '';
}

/**
 * A non-blank string, or null.
 *
 * @param mixed $value The value.
 */
function loyalty_widgets_required( $value ): ?string {
	return is_string( $value ) && '' !== trim( $value ) ? $value : null;
}

/**
 * A JSON object (as an associative array), or null.
 *
 * @param mixed $value The value.
 */
function loyalty_widgets_object( $value ): ?array {
	return is_array( $value ) && ( array() === $value || ! array_is_list( $value ) ) ? $value : null;
}

/**
 * `{ url }` or null.
 *
 * @param mixed $value The value.
 */
function loyalty_widgets_image( $value ) {
	$url = loyalty_widgets_required( loyalty_widgets_object( $value )['url'] ?? null );
	return null === $url ? null : array( 'url' => $url );
}

/**
 * A campaign as the widgets read it, or null when it has no id or title.
 *
 * @param mixed $value The upstream's record.
 */
function loyalty_widgets_normalize_campaign( $value ): ?array {
	$campaign = loyalty_widgets_object( $value );
	$content  = loyalty_widgets_object( $campaign['content'] ?? null );
	$id       = loyalty_widgets_required( $campaign['id'] ?? null );
	$title    = loyalty_widgets_required( $content['title'] ?? null );
	if ( null === $id || null === $title ) {
		return null;
	}
	$normalized = array(
		'title'       => $title,
		'subtitle'    => loyalty_widgets_text( $content['subtitle'] ?? null ),
		'description' => loyalty_widgets_text( $content['description'] ?? null ),
	);
	foreach ( loyalty_widgets_contract()['limits']['imageWidths'] as $width ) {
		$normalized[ 'img' . $width ] = loyalty_widgets_image( $content[ 'img' . $width ] ?? null );
	}
	$objective                = loyalty_widgets_object( $content['objective'] ?? null );
	$typename                 = $objective['__typename'] ?? null;
	$normalized['objective']  = null;
	if ( is_string( $typename ) && preg_match( '/^[_A-Za-z][_0-9A-Za-z]{0,127}$/', $typename ) ) {
		$normalized['objective'] = array( '__typename' => $typename );
		if ( 'CouponObjective' === $typename ) {
			$price                            = $objective['price'] ?? null;
			$normalized['objective']['price'] = is_string( $price ) ? $price : ( is_int( $price ) || is_float( $price ) && is_finite( $price ) ? loyalty_widgets_number_text( $price ) : null );
		}
	}
	return array(
		'id'                => $id,
		'businessAccountId' => loyalty_widgets_text( $campaign['businessAccountId'] ?? null ),
		'content'           => $normalized,
	);
}

/**
 * A number's decimal text as JavaScript writes it (3.5 → "3.5", 4.0 → "4").
 *
 * @param int|float $number The number.
 */
function loyalty_widgets_number_text( $number ): string {
	$text = (string) wp_json_encode( $number );
	return str_ends_with( $text, '.0' ) ? substr( $text, 0, -2 ) : $text;
}

/**
 * A business account as the widgets read it, or null when it has no id or name. Only an explicit
 * `pending: false` is approved.
 *
 * @param mixed $value The upstream's record.
 */
function loyalty_widgets_normalize_business_account( $value ): ?array {
	$account = loyalty_widgets_object( $value );
	$id      = loyalty_widgets_required( $account['id'] ?? null );
	$name    = loyalty_widgets_required( $account['name'] ?? null );
	if ( null === $id || null === $name ) {
		return null;
	}
	$address = loyalty_widgets_object( $account['address'] ?? null );
	if ( null !== $address ) {
		$address = array(
			'streetAddress' => loyalty_widgets_text( $address['streetAddress'] ?? null ),
			'postalCode'    => loyalty_widgets_text( $address['postalCode'] ?? null ),
			'city'          => loyalty_widgets_text( $address['city'] ?? null ),
		);
		if ( '' === $address['streetAddress'] . $address['postalCode'] . $address['city'] ) {
			$address = null;
		}
	}
	$properties = array();
	if ( is_array( $account['customProperties'] ?? null ) && array_is_list( $account['customProperties'] ) ) {
		foreach ( $account['customProperties'] as $entry ) {
			$property = loyalty_widgets_object( $entry );
			$key      = loyalty_widgets_required( $property['key'] ?? null );
			if ( null !== $key && is_string( $property['value'] ?? null ) ) {
				$properties[] = array(
					'key'   => $key,
					'value' => $property['value'],
				);
			}
		}
	}
	return array(
		'id'               => $id,
		'name'             => $name,
		'websiteUrl'       => loyalty_widgets_text( $account['websiteUrl'] ?? null ),
		'address'          => $address,
		'description'      => loyalty_widgets_text( $account['description'] ?? null ),
		'phoneNumber'      => loyalty_widgets_text( $account['phoneNumber'] ?? null ),
		'category'         => loyalty_widgets_text( $account['category'] ?? null ),
		'logo'             => loyalty_widgets_image( $account['logo'] ?? null ),
		'pending'          => false !== ( $account['pending'] ?? null ),
		'customProperties' => $properties,
	);
}

/**
 * base64url without padding.
 *
 * @param string $bytes The bytes.
 */
function loyalty_widgets_base64url( string $bytes ): string {
	return rtrim( strtr( base64_encode( $bytes ), '+/', '-_' ), '=' ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode
}

/**
 * Bytes of base64url text, or null.
 *
 * @param string $text The text.
 */
function loyalty_widgets_from_base64url( string $text ): ?string {
	if ( ! preg_match( '/^[A-Za-z0-9_-]*$/', $text ) || 1 === strlen( $text ) % 4 ) {
		return null;
	}
	$bytes = base64_decode( strtr( $text, '-_', '+/' ), true ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_decode
	return false === $bytes ? null : $bytes;
}

/** The 400 for a cursor this proxy did not issue for this list. */
function loyalty_widgets_invalid_cursor(): Loyalty_Widgets_Proxy_Error {
	return new Loyalty_Widgets_Proxy_Error( 400, 'invalid_cursor', 'This nextToken was not issued by this proxy for this list; start again from the first page.' );
}

/**
 * The MAC of a cursor's payload in its list, keyed by a key derived from the secret (the API key
 * itself never signs a cursor). The layout is the Node proxy's, so the same secret reads either's cursors.
 *
 * @param string $secret  The API key.
 * @param string $scope   The list: operation and filter variables.
 * @param string $payload The cursor's payload.
 */
function loyalty_widgets_cursor_mac( string $secret, string $scope, string $payload ): string {
	$cursor  = loyalty_widgets_contract()['cursor'];
	$derived = hash_hmac( 'sha256', $cursor['keyLabel'], $secret, true );
	return substr( hash_hmac( 'sha256', $scope . "\n" . $payload, $derived, true ), 0, $cursor['macBytes'] );
}

/**
 * The cursor for a position `{ token, limit, skip }` in a list.
 *
 * @param string $secret   The API key.
 * @param string $scope    The list.
 * @param array  $position Where the next page starts.
 * @throws Loyalty_Widgets_Proxy_Error When the upstream's token is too long to pass on.
 */
function loyalty_widgets_seal_cursor( string $secret, string $scope, array $position ): string {
	$header = array(
		'v' => 1,
		'l' => $position['limit'],
		's' => $position['skip'],
	);
	$bytes  = '';
	if ( null !== $position['token'] ) {
		$decoded = preg_match( '~^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$~', $position['token'] ) ? base64_decode( $position['token'], true ) : false; // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_decode
		$stored  = false !== $decoded && base64_encode( $decoded ) === $position['token']; // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode
		// A token in standard base64 (AppSync's are) is kept decoded: a shorter cursor.
		$header['e'] = $stored ? 'b' : 'u';
		$bytes       = $stored ? $decoded : $position['token'];
	}
	$payload = loyalty_widgets_json( $header ) . "\n" . $bytes;
	$cursor  = loyalty_widgets_base64url( $payload ) . '.' . loyalty_widgets_base64url( loyalty_widgets_cursor_mac( $secret, $scope, $payload ) );
	if ( strlen( $cursor ) > loyalty_widgets_contract()['operations']['campaigns']['variables']['nextToken']['maxLength'] ) {
		throw new Loyalty_Widgets_Proxy_Error( 502, 'upstream_error', 'The Marketing API gave a page token too long to pass on.', array(), true );
	}
	return $cursor;
}

/**
 * The position a cursor of this list stands for.
 *
 * @param string $secret The API key.
 * @param string $scope  The list.
 * @param string $cursor The cursor.
 * @throws Loyalty_Widgets_Proxy_Error 400 `invalid_cursor` for anything else.
 */
function loyalty_widgets_open_cursor( string $secret, string $scope, string $cursor ): array {
	$parts = explode( '.', $cursor );
	if ( 2 !== count( $parts ) ) {
		throw loyalty_widgets_invalid_cursor();
	}
	$payload = loyalty_widgets_from_base64url( $parts[0] );
	$mac     = loyalty_widgets_from_base64url( $parts[1] );
	if ( null === $payload || null === $mac || ! hash_equals( loyalty_widgets_cursor_mac( $secret, $scope, $payload ), $mac ) ) {
		throw loyalty_widgets_invalid_cursor();
	}
	$newline = strpos( $payload, "\n" );
	$header  = false === $newline ? null : json_decode( substr( $payload, 0, $newline ), true );
	if ( ! is_array( $header ) || 1 !== ( $header['v'] ?? null ) || ! is_int( $header['l'] ?? null ) || ! is_int( $header['s'] ?? null ) ) {
		throw loyalty_widgets_invalid_cursor();
	}
	$bytes = substr( $payload, $newline + 1 );
	$e     = $header['e'] ?? null;
	$token = 'b' === $e ? base64_encode( $bytes ) : ( 'u' === $e ? $bytes : null ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode
	return array(
		'token' => $token,
		'limit' => $header['l'],
		'skip'  => $header['s'],
	);
}

/**
 * The variables in a stable text (sorted names), for cache, idempotency and cursor keys.
 *
 * @param array $variables The variables.
 */
function loyalty_widgets_canonical_variables( array $variables ): string {
	ksort( $variables, SORT_STRING );
	$pairs = array();
	foreach ( $variables as $name => $value ) {
		$pairs[] = array( (string) $name, $value );
	}
	return loyalty_widgets_json( $pairs );
}

/**
 * Where a page starts: `{ scope, filter, target, start }`.
 *
 * @param string $secret    The API key.
 * @param string $name      The operation.
 * @param array  $variables Its checked variables.
 * @throws Loyalty_Widgets_Proxy_Error For a cursor not issued for this list.
 */
function loyalty_widgets_page_start( string $secret, string $name, array $variables ): array {
	$filter = $variables;
	unset( $filter['limit'], $filter['nextToken'] );
	$scope  = $name . "\n" . loyalty_widgets_canonical_variables( $filter );
	$target = $variables['limit'] ?? loyalty_widgets_contract()['limits']['defaultPageSize'];
	$start  = isset( $variables['nextToken'] ) ? loyalty_widgets_open_cursor( $secret, $scope, $variables['nextToken'] ) : array(
		'token' => null,
		'limit' => $target,
		'skip'  => 0,
	);
	return compact( 'scope', 'filter', 'target', 'start' );
}

/**
 * A built-in query's answer body: a filled page with the next cursor, or one campaign.
 *
 * @param array    $config    The proxy's settings.
 * @param string   $name      The operation.
 * @param array    $variables Its checked variables.
 * @param callable $send      Sends the operation with variables; returns `{ value, partial }`. Counts each call after the first.
 * @throws Loyalty_Widgets_Proxy_Error On any failure.
 */
function loyalty_widgets_built_in_query( array $config, string $name, array $variables, callable $send ): string {
	$operation = loyalty_widgets_contract()['operations'][ $name ];
	if ( ! $operation['paged'] ) {
		$answer = $send( $variables );
		$value  = null === $answer['value'] ? null : loyalty_widgets_normalize_campaign( $answer['value'] );
		return loyalty_widgets_json( array( 'data' => array( $name => $value ) ) );
	}
	$normalize = 'campaigns' === $name ? 'loyalty_widgets_normalize_campaign' : 'loyalty_widgets_normalize_business_account';
	$page      = loyalty_widgets_page_start( $config['key'], $name, $variables );
	$limits    = loyalty_widgets_contract()['limits']['pageFill'];
	$target    = $page['target'];
	$position  = $page['start'];
	$items     = array();
	$next      = null;
	$calls     = 0;
	$asked     = 0;
	$found     = 0;
	$started   = loyalty_widgets_now_ms();
	for ( ;; ) {
		++$calls;
		$read = $page['filter'] + array( 'limit' => $position['limit'] ) + ( null === $position['token'] ? array() : array( 'nextToken' => $position['token'] ) );
		try {
			$value = $send( $read )['value'];
		} catch ( Loyalty_Widgets_Proxy_Error $error ) {
			// A later read failing must not lose what was found: serve it, and resume at the failed read.
			if ( ! $items ) {
				throw $error;
			}
			$next = $position;
			break;
		}
		$object = loyalty_widgets_object( $value );
		if ( null === $object || isset( $object['items'] ) && ! ( is_array( $object['items'] ) && array_is_list( $object['items'] ) ) ) {
			throw new Loyalty_Widgets_Proxy_Error( 502, 'upstream_error', "The Marketing API answered \"{$name}\" in an unexpected shape.", array(), true );
		}
		$rows       = $object['items'] ?? array();
		$next_token = isset( $object['nextToken'] ) && is_string( $object['nextToken'] ) && '' !== $object['nextToken'] ? $object['nextToken'] : null;
		$asked     += $position['limit'];
		$fresh      = array_map( $normalize, array_slice( $rows, $position['skip'] ) );
		$found     += count( array_filter( $fresh, static fn( $item ) => null !== $item ) );
		foreach ( $fresh as $index => $item ) {
			if ( null === $item ) {
				continue;
			}
			if ( count( $items ) === $target ) {
				$next = array(
					'token' => $position['token'],
					'limit' => $position['limit'],
					'skip'  => $position['skip'] + $index,
				);
				break 2;
			}
			$items[] = $item;
		}
		if ( null === $next_token ) {
			break;
		}
		$remaining = $target - count( $items );
		$wanted    = $remaining > 0 ? $remaining : $target;
		$estimate  = 0 === $found ? $limits['maxUpstreamLimit'] : (int) ceil( ( $wanted * $asked * 1.25 ) / $found );
		$position  = array(
			'token' => $next_token,
			'limit' => min( $limits['maxUpstreamLimit'], max( $target, $estimate ) ),
			'skip'  => 0,
		);
		if ( count( $items ) === $target || $calls >= $limits['maxUpstreamCalls'] || loyalty_widgets_now_ms() - $started >= $limits['maxMillis'] ) {
			$next = $position;
			break;
		}
	}
	$cursor = null === $next ? null : loyalty_widgets_seal_cursor( $config['key'], $page['scope'], $next );
	return loyalty_widgets_json(
		array(
			'data' => array(
				$name => array(
					'items'     => $items,
					'nextToken' => $cursor,
				),
			),
		)
	);
}
