<?php
/**
 * The proxy's state that must be shared and never evicted: Idempotency-Key records and rate-limit
 * counters, in a table of the site's database. Its primary key makes taking a key one atomic
 * INSERT: of several PHP workers (or web servers on one database) that try at once, one inserts, the
 * others read its row. Cached answers live elsewhere (./cache.php), so no cache can push a record out.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

const LOYALTY_WIDGETS_DB_VERSION_OPTION = 'loyalty_widgets_db_version';
const LOYALTY_WIDGETS_DB_VERSION        = '1';

/** The table's name on this site. */
function loyalty_widgets_table(): string {
	global $wpdb;
	return $wpdb->prefix . 'loyalty_widgets_proxy';
}

/** Creates (or updates) the table; run on activation, and on the first request after an update. */
function loyalty_widgets_install_table(): void {
	global $wpdb;
	require_once ABSPATH . 'wp-admin/includes/upgrade.php';
	$table   = loyalty_widgets_table();
	$charset = $wpdb->get_charset_collate();
	// entry_key: SHA-256 (hex) of the record's or counter's name, so no shopper data is stored as such.
	dbDelta(
		"CREATE TABLE {$table} (
  entry_key char(64) NOT NULL,
  value longtext NOT NULL,
  count int unsigned NOT NULL DEFAULT 0,
  expires_at bigint unsigned NOT NULL,
  PRIMARY KEY  (entry_key),
  KEY expires_at (expires_at)
) {$charset};"
	);
	update_option( LOYALTY_WIDGETS_DB_VERSION_OPTION, LOYALTY_WIDGETS_DB_VERSION );
}

/** The table exists at this version (a plugin updated without reactivation gets it here). */
function loyalty_widgets_ensure_table(): void {
	if ( get_option( LOYALTY_WIDGETS_DB_VERSION_OPTION ) !== LOYALTY_WIDGETS_DB_VERSION ) {
		loyalty_widgets_install_table();
	}
}

/**
 * The store is down: coupon requests fail closed, nothing is minted.
 *
 * @throws Loyalty_Widgets_Proxy_Error Always.
 */
function loyalty_widgets_store_failed(): void {
	throw new Loyalty_Widgets_Proxy_Error( 503, 'store_unavailable', 'The proxy\'s store cannot be reached; try again shortly.', array( 'retry-after' => '1' ) );
}

/**
 * The row name for a key.
 *
 * @param string $name The record's or counter's name.
 */
function loyalty_widgets_entry_key( string $name ): string {
	return hash( 'sha256', $name );
}

/**
 * Counts one request against a rule in a fixed window; 429 `rate_limited` with Retry-After past its limit.
 * One statement: the row is created or counted, and the count this request made is read back through
 * LAST_INSERT_ID on the same connection, so concurrent workers each see their own count.
 *
 * @param string     $name What is counted (e.g. `addr:203.0.113.7`).
 * @param array|bool $rule `{ limit, windowSeconds }`, or false for none.
 * @param string     $what What the refusal names.
 * @throws Loyalty_Widgets_Proxy_Error Past the limit, or when the store fails.
 */
function loyalty_widgets_count( string $name, $rule, string $what = 'coupon requests' ): void {
	global $wpdb;
	if ( ! is_array( $rule ) ) {
		return;
	}
	$table  = loyalty_widgets_table();
	$now    = loyalty_widgets_now_ms();
	$window = (int) round( $rule['windowSeconds'] * 1000 );
	$key    = loyalty_widgets_entry_key( 'rate:' . $name );
	// phpcs:disable WordPress.DB.DirectDatabaseQuery -- a counter must be counted where every worker sees it, never cached.
	$done = $wpdb->query(
		$wpdb->prepare(
			// The count is assigned before expires_at, so both read the row's old expiry.
			"INSERT INTO {$table} (entry_key, value, count, expires_at) VALUES (%s, '', LAST_INSERT_ID(1), %d) ON DUPLICATE KEY UPDATE count = LAST_INSERT_ID(IF(expires_at <= %d, 1, count + 1)), expires_at = IF(expires_at <= %d, %d, expires_at)", // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared
			$key,
			$now + $window,
			$now,
			$now,
			$now + $window
		)
	);
	if ( false === $done ) {
		loyalty_widgets_store_failed();
	}
	$count = (int) $wpdb->get_var( 'SELECT LAST_INSERT_ID()' );
	if ( $count > (int) $rule['limit'] ) {
		$expires = (int) $wpdb->get_var( $wpdb->prepare( "SELECT expires_at FROM {$table} WHERE entry_key = %s", $key ) ); // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared
		// phpcs:enable
		throw loyalty_widgets_rate_limited( max( 0, $expires - $now ), $what );
	}
}

/**
 * The 429 for a counter past its limit, whose window ends in `$reset_ms`.
 *
 * @param int    $reset_ms When the window ends.
 * @param string $what     What was counted.
 */
function loyalty_widgets_rate_limited( int $reset_ms, string $what = 'coupon requests' ): Loyalty_Widgets_Proxy_Error {
	$retry_after = max( 1, (int) ceil( $reset_ms / 1000 ) );
	return new Loyalty_Widgets_Proxy_Error( 429, 'rate_limited', "Too many {$what}; try again in {$retry_after} s.", array( 'retry-after' => (string) $retry_after ) );
}

/**
 * Takes a record's name atomically, or reads who holds it.
 *
 * @param string $name   The record's name.
 * @param string $value  What the new record holds (a pending lock).
 * @param int    $ttl_ms How long it lives.
 * @return array `{ taken: true }` or `{ taken: false, value }`.
 */
function loyalty_widgets_claim_record( string $name, string $value, int $ttl_ms ): array {
	global $wpdb;
	$table = loyalty_widgets_table();
	$key   = loyalty_widgets_entry_key( $name );
	// phpcs:disable WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the lock is the row itself: no cache may answer for it.
	for ( $attempt = 0; $attempt < 5; $attempt++ ) {
		$now      = loyalty_widgets_now_ms();
		$inserted = $wpdb->query( $wpdb->prepare( "INSERT IGNORE INTO {$table} (entry_key, value, count, expires_at) VALUES (%s, %s, 0, %d)", $key, $value, $now + $ttl_ms ) );
		if ( false === $inserted ) {
			loyalty_widgets_store_failed();
		}
		if ( 1 === $inserted ) {
			return array( 'taken' => true );
		}
		$row = $wpdb->get_row( $wpdb->prepare( "SELECT value, expires_at FROM {$table} WHERE entry_key = %s", $key ), ARRAY_A );
		if ( null === $row ) {
			continue; // Deleted in between: try to take it again.
		}
		if ( (int) $row['expires_at'] <= $now ) {
			$wpdb->query( $wpdb->prepare( "DELETE FROM {$table} WHERE entry_key = %s AND expires_at <= %d", $key, $now ) );
			continue;
		}
		return array(
			'taken' => false,
			'value' => $row['value'],
		);
	}
	// phpcs:enable
	loyalty_widgets_store_failed();
}

/**
 * A record's value, or null.
 *
 * @param string $name The record's name.
 */
function loyalty_widgets_read_record( string $name ): ?string {
	global $wpdb;
	$table = loyalty_widgets_table();
	// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared
	$row = $wpdb->get_row( $wpdb->prepare( "SELECT value FROM {$table} WHERE entry_key = %s AND expires_at > %d", loyalty_widgets_entry_key( $name ), loyalty_widgets_now_ms() ), ARRAY_A );
	if ( null === $row && '' !== $wpdb->last_error ) {
		loyalty_widgets_store_failed();
	}
	return null === $row ? null : $row['value'];
}

/**
 * Writes a record (its outcome over its lock).
 *
 * @param string $name   The record's name.
 * @param string $value  Its value.
 * @param int    $ttl_ms How long it lives.
 */
function loyalty_widgets_write_record( string $name, string $value, int $ttl_ms ): bool {
	global $wpdb;
	$table = loyalty_widgets_table();
	// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared
	$done = $wpdb->query( $wpdb->prepare( "REPLACE INTO {$table} (entry_key, value, count, expires_at) VALUES (%s, %s, 0, %d)", loyalty_widgets_entry_key( $name ), $value, loyalty_widgets_now_ms() + $ttl_ms ) );
	return false !== $done;
}

/**
 * Frees a record's name.
 *
 * @param string $name The record's name.
 */
function loyalty_widgets_delete_record( string $name ): void {
	global $wpdb;
	$table = loyalty_widgets_table();
	// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared
	$wpdb->query( $wpdb->prepare( "DELETE FROM {$table} WHERE entry_key = %s", loyalty_widgets_entry_key( $name ) ) );
}

/** Removes expired rows, a few at a time (run now and then by requests, so no cron is needed). */
function loyalty_widgets_purge_expired(): void {
	global $wpdb;
	$table = loyalty_widgets_table();
	// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared
	$wpdb->query( $wpdb->prepare( "DELETE FROM {$table} WHERE expires_at <= %d LIMIT 500", loyalty_widgets_now_ms() ) );
}
