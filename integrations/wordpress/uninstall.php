<?php
/**
 * Removes what the plugin stored: its settings, on every site of a network.
 *
 * @package LoyaltyWidgets
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

if ( is_multisite() ) {
	foreach ( get_sites( array( 'fields' => 'ids' ) ) as $loyalty_widgets_site ) {
		switch_to_blog( $loyalty_widgets_site );
		delete_option( 'loyalty_widgets_settings' );
		restore_current_blog();
	}
} else {
	delete_option( 'loyalty_widgets_settings' );
}
