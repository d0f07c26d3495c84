<?php
/**
 * The launcher on every page: with Settings → Loyalty widgets → Launcher set to a corner, one
 * <loyalty-launcher> in the footer of every front-end page, its corner and label from the settings,
 * the script and stylesheet in the head. No editor places it; the page's sign-in is the head's metas.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/** The corners the launcher may sit in, as the element names them; '' is off. */
function loyalty_widgets_launcher_corners(): array {
	return array(
		'bottom-end'   => __( 'Bottom, end side (right in left-to-right languages)', 'loyalty-widgets' ),
		'bottom-start' => __( 'Bottom, start side', 'loyalty-widgets' ),
		'top-end'      => __( 'Top, end side', 'loyalty-widgets' ),
		'top-start'    => __( 'Top, start side', 'loyalty-widgets' ),
	);
}

/** Whether the launcher is on. */
function loyalty_widgets_launcher_on(): bool {
	return isset( loyalty_widgets_launcher_corners()[ loyalty_widgets_settings()['launcher'] ] );
}

add_filter(
	'loyalty_widgets_page_has_widgets',
	static fn( $found ) => $found || loyalty_widgets_launcher_on()
);

/** Prints the launcher once, in the footer of a front-end page. */
function loyalty_widgets_print_launcher(): void {
	static $printed = false;
	if ( $printed || is_admin() || ! loyalty_widgets_launcher_on() ) {
		return;
	}
	$printed    = true;
	$settings   = loyalty_widgets_settings();
	$attributes = array(
		'corner'   => $settings['launcher'],
		'label'    => $settings['launcher_label'],
		'currency' => $settings['currency'],
		'lang'     => $settings['language'],
	);
	$html = '';
	foreach ( array_filter( $attributes, static fn( string $value ): bool => '' !== $value ) as $name => $value ) {
		$html .= sprintf( ' %s="%s"', $name, esc_attr( $value ) );
	}
	echo '<loyalty-launcher' . $html . "></loyalty-launcher>\n"; // Each value is escaped above.
}
add_action( 'wp_footer', 'loyalty_widgets_print_launcher' );
