<?php
/**
 * Plugin Name:       Loyalty widgets
 * Description:       Sign shoppers in with their loyalty wallet and show the loyalty program's campaigns, coupons and partner businesses: four blocks, four shortcodes and a settings page.
 * Version:           0.1.0
 * Requires at least: 6.1
 * Requires PHP:      8.2
 * License:           MIT
 * License URI:       https://opensource.org/licenses/MIT
 * Text Domain:       loyalty-widgets
 * Domain Path:       /languages
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

define( 'LOYALTY_WIDGETS_VERSION', '0.1.0' );
define( 'LOYALTY_WIDGETS_FILE', __FILE__ );

require_once __DIR__ . '/includes/settings.php';
require_once __DIR__ . '/includes/callback.php';
require_once __DIR__ . '/includes/assets.php';
require_once __DIR__ . '/includes/widgets.php';
require_once __DIR__ . '/includes/launcher.php';
require_once __DIR__ . '/includes/settings-page.php';
require_once __DIR__ . '/includes/proxy/contract.php';
require_once __DIR__ . '/includes/proxy/config.php';
require_once __DIR__ . '/includes/proxy/store.php';
require_once __DIR__ . '/includes/proxy/cache.php';
require_once __DIR__ . '/includes/proxy/upstream.php';
require_once __DIR__ . '/includes/proxy/answers.php';
require_once __DIR__ . '/includes/proxy/shopper.php';
require_once __DIR__ . '/includes/proxy/claim.php';
require_once __DIR__ . '/includes/proxy/cors.php';
require_once __DIR__ . '/includes/proxy/request.php';
require_once __DIR__ . '/includes/proxy/route.php';
require_once __DIR__ . '/includes/proxy/doctor.php';
require_once __DIR__ . '/includes/first-page/url.php';
require_once __DIR__ . '/includes/first-page/display.php';
require_once __DIR__ . '/includes/first-page/markup.php';
require_once __DIR__ . '/includes/first-page/read.php';
require_once __DIR__ . '/includes/first-page/shield.php';

register_activation_hook( __FILE__, 'loyalty_widgets_install_table' );

add_action(
	'init',
	static function () {
		load_plugin_textdomain( 'loyalty-widgets', false, dirname( plugin_basename( LOYALTY_WIDGETS_FILE ) ) . '/languages' );
	},
	0
);
