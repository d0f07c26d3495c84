<?php
/**
 * Removes what the plugin stored, on every site of a network: its settings, its key, its table of
 * claim records and rate-limit counters, and its transients (cached answers, Connect's keys, checked
 * shoppers). A persistent object cache keeps cached answers only until they expire (150 s).
 *
 * @package LoyaltyWidgets
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

/** Removes this site's data. */
function loyalty_widgets_uninstall_site(): void {
	global $wpdb;
	foreach ( array( 'loyalty_widgets_settings', 'loyalty_widgets_marketing_key', 'loyalty_widgets_db_version' ) as $option ) {
		delete_option( $option );
	}
	// phpcs:disable WordPress.DB.DirectDatabaseQuery -- uninstalling: what the plugin created goes.
	$wpdb->query( "DROP TABLE IF EXISTS {$wpdb->prefix}loyalty_widgets_proxy" ); // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared
	$wpdb->query(
		$wpdb->prepare(
			"DELETE FROM {$wpdb->options} WHERE option_name LIKE %s OR option_name LIKE %s",
			$wpdb->esc_like( '_transient_loyalty_widgets_' ) . '%',
			$wpdb->esc_like( '_transient_timeout_loyalty_widgets_' ) . '%'
		)
	);
	// phpcs:enable
}

if ( is_multisite() ) {
	foreach ( get_sites(
		array(
			'fields' => 'ids',
			'number' => 0,
		)
	) as $loyalty_widgets_site ) {
		switch_to_blog( $loyalty_widgets_site );
		loyalty_widgets_uninstall_site();
		restore_current_blog();
	}
} else {
	loyalty_widgets_uninstall_site();
}
