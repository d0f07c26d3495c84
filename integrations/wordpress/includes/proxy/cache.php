<?php
/**
 * Cached answers of queries: in the site's persistent object cache (Redis, Memcached) when it has
 * one, else in transients. Each entry lives for the contract's fresh time plus its stale time, so
 * what a flood of distinct queries can store is bounded by the query-miss rate limit and that time;
 * a persistent cache evicts besides. Claim records and counters are never here (./store.php).
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

const LOYALTY_WIDGETS_CACHE_GROUP = 'loyalty_widgets';

/**
 * The name of a cached answer (transient names are at most 172 characters).
 *
 * @param string $key The operation and its variables.
 */
function loyalty_widgets_cache_name( string $key ): string {
	return 'loyalty_widgets_c_' . md5( $key );
}

/**
 * A cached answer `{ body, fresh_until }` (ms), or null.
 *
 * @param string $key The operation and its variables.
 */
function loyalty_widgets_cache_get( string $key ): ?array {
	$name  = loyalty_widgets_cache_name( $key );
	$entry = wp_using_ext_object_cache() ? wp_cache_get( $name, LOYALTY_WIDGETS_CACHE_GROUP ) : get_transient( $name );
	return is_array( $entry ) && isset( $entry['key'], $entry['body'], $entry['fresh_until'] ) && $entry['key'] === $key ? $entry : null;
}

/**
 * Keeps an answer: fresh for the contract's time, then stale for its stale time.
 *
 * @param string $key  The operation and its variables.
 * @param string $body The answer.
 */
function loyalty_widgets_cache_set( string $key, string $body ): void {
	$cache = loyalty_widgets_contract()['cache'];
	$name  = loyalty_widgets_cache_name( $key );
	$entry = array(
		'key'         => $key,
		'body'        => $body,
		'fresh_until' => loyalty_widgets_now_ms() + $cache['ttlSeconds'] * 1000,
	);
	$ttl   = (int) ( $cache['ttlSeconds'] + $cache['staleWhileRevalidateSeconds'] );
	if ( wp_using_ext_object_cache() ) {
		wp_cache_set( $name, $entry, LOYALTY_WIDGETS_CACHE_GROUP, $ttl );
	} else {
		set_transient( $name, $entry, $ttl );
	}
}

/**
 * Takes the one refresh of a stale answer (another worker may have taken it).
 *
 * @param string $key The operation and its variables.
 */
function loyalty_widgets_cache_take_refresh( string $key ): bool {
	$name = loyalty_widgets_cache_name( $key ) . '_r';
	if ( wp_using_ext_object_cache() ) {
		return wp_cache_add( $name, 1, LOYALTY_WIDGETS_CACHE_GROUP, 10 );
	}
	if ( false !== get_transient( $name ) ) {
		return false;
	}
	set_transient( $name, 1, 10 );
	return true;
}

/** The Cache-Control of a cached answer. */
function loyalty_widgets_cache_control(): string {
	$cache = loyalty_widgets_contract()['cache'];
	return sprintf( 'public, max-age=%d, stale-while-revalidate=%d', $cache['ttlSeconds'], $cache['staleWhileRevalidateSeconds'] );
}
