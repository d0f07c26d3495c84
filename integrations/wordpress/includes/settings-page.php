<?php
/**
 * Settings → Loyalty widgets: the settings API's form (its nonce and the manage_options check come
 * with it), every field escaped, and the redirect URI to register at Connect.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/** The fields: key => [label, description, input type]. */
function loyalty_widgets_fields(): array {
	return array(
		'authority'         => array( __( 'Connect authority', 'loyalty-widgets' ), __( 'The address of Connect, e.g. https://connect.example.', 'loyalty-widgets' ), 'url' ),
		'client_id'         => array( __( 'App id', 'loyalty-widgets' ), __( 'The app_id of your app registered at Connect.', 'loyalty-widgets' ), 'text' ),
		'marketing_url'     => array( __( 'Marketing API', 'loyalty-widgets' ), __( 'The Marketing API\'s GraphQL address (https). This site calls it with your key; shoppers\' browsers never do.', 'loyalty-widgets' ), 'url' ),
		'members_campaigns' => array( __( 'Members-only coupons', 'loyalty-widgets' ), __( 'Campaign ids, separated by spaces, whose coupons only signed-in shoppers may claim (* for every coupon). Needs the Connect authority and the app id.', 'loyalty-widgets' ), 'text' ),
		'proxy_origins'     => array( __( 'Other sites calling the proxy', 'loyalty-widgets' ), __( 'Origins of other sites whose pages may use this site\'s Marketing proxy, separated by spaces; this site always may.', 'loyalty-widgets' ), 'text' ),
		'endpoint'          => array( __( 'Proxy endpoint', 'loyalty-widgets' ), __( 'Where the widgets ask for Marketing data: by default this site\'s own proxy (the REST route loyalty-widgets/v1/marketing); or the https address of a Marketing proxy you run on another origin, where signed-in shoppers\' tokens may then go.', 'loyalty-widgets' ), 'text' ),
		'token_origins'     => array( __( 'Other token origins', 'loyalty-widgets' ), __( 'More origins, separated by spaces, that may receive signed-in shoppers\' tokens (the proxy endpoint\'s origin is included already).', 'loyalty-widgets' ), 'text' ),
		'currency'          => array( __( 'Currency', 'loyalty-widgets' ), __( 'The currency of campaign prices, e.g. EUR (a block may set its own).', 'loyalty-widgets' ), 'text' ),
		'language'          => array( __( 'Language', 'loyalty-widgets' ), __( 'The widgets\' language, e.g. fr; empty for the page\'s language.', 'loyalty-widgets' ), 'text' ),
		'launcher_label'    => array( __( 'Launcher label', 'loyalty-widgets' ), __( 'The launcher button\'s text; empty for "Rewards" in the page\'s language.', 'loyalty-widgets' ), 'text' ),
	);
}

add_action(
	'admin_menu',
	static function () {
		add_options_page(
			__( 'Loyalty widgets', 'loyalty-widgets' ),
			__( 'Loyalty widgets', 'loyalty-widgets' ),
			'manage_options',
			'loyalty-widgets',
			'loyalty_widgets_settings_page'
		);
	}
);

add_action(
	'admin_init',
	static function () {
		add_settings_section( 'loyalty_widgets_main', '', '__return_false', 'loyalty-widgets' );
		foreach ( loyalty_widgets_fields() as $key => list( $label, $description, $type ) ) {
			add_settings_field(
				'loyalty-widgets-' . $key,
				$label,
				static function () use ( $key, $description, $type ) {
					$value = loyalty_widgets_settings()[ $key ];
					printf(
						'<input class="regular-text" type="%1$s" id="loyalty-widgets-%2$s" name="%3$s[%2$s]" value="%4$s" aria-describedby="loyalty-widgets-%2$s-description"><p class="description" id="loyalty-widgets-%2$s-description">%5$s</p>',
						esc_attr( $type ),
						esc_attr( $key ),
						esc_attr( LOYALTY_WIDGETS_OPTION ),
						esc_attr( $value ),
						esc_html( $description )
					);
				},
				'loyalty-widgets',
				'loyalty_widgets_main',
				array( 'label_for' => 'loyalty-widgets-' . $key )
			);
		}
		add_settings_field(
			'loyalty-widgets-launcher',
			__( 'Launcher', 'loyalty-widgets' ),
			'loyalty_widgets_launcher_field',
			'loyalty-widgets',
			'loyalty_widgets_main',
			array( 'label_for' => 'loyalty-widgets-launcher' )
		);
		add_settings_field(
			'loyalty-widgets-marketing-key',
			__( 'Marketing API key', 'loyalty-widgets' ),
			'loyalty_widgets_key_field',
			'loyalty-widgets',
			'loyalty_widgets_main',
			array( 'label_for' => 'loyalty-widgets-marketing-key' )
		);
	}
);

/** The launcher's field: off, or the corner of every page it floats in. */
function loyalty_widgets_launcher_field(): void {
	$current = loyalty_widgets_settings()['launcher'];
	$options = array( '' => __( 'Off', 'loyalty-widgets' ) ) + loyalty_widgets_launcher_corners();
	printf( '<select id="loyalty-widgets-launcher" name="%s[launcher]" aria-describedby="loyalty-widgets-launcher-description">', esc_attr( LOYALTY_WIDGETS_OPTION ) );
	foreach ( $options as $value => $label ) {
		printf( '<option value="%s"%s>%s</option>', esc_attr( $value ), selected( $current, $value, false ), esc_html( $label ) );
	}
	echo '</select><p class="description" id="loyalty-widgets-launcher-description">' . esc_html__( 'A floating button on every page of the site that opens the whole program: sign-in, offers and coupons, the shopper\'s coupons, partners. Needs the Connect authority and the app id for its sign-in.', 'loyalty-widgets' ) . '</p>';
}

/** The key's field: never filled in with the saved key, nor any part of it. */
function loyalty_widgets_key_field(): void {
	if ( loyalty_widgets_key_from_constant() ) {
		echo '<p id="loyalty-widgets-marketing-key">' . esc_html__( 'Set in wp-config.php (LOYALTY_WIDGETS_MARKETING_API_KEY).', 'loyalty-widgets' ) . '</p>';
		return;
	}
	$saved = '' !== loyalty_widgets_marketing_key();
	printf(
		'<input class="regular-text" type="password" autocomplete="off" id="loyalty-widgets-marketing-key" name="%1$s" value="" aria-describedby="loyalty-widgets-marketing-key-description"><p class="description" id="loyalty-widgets-marketing-key-description">%2$s</p>',
		esc_attr( LOYALTY_WIDGETS_KEY_OPTION ),
		esc_html(
			$saved
				? __( 'A key is saved. Leave this empty to keep it, or paste a new one. (Or define LOYALTY_WIDGETS_MARKETING_API_KEY in wp-config.php.)', 'loyalty-widgets' )
				: __( 'Paste your Marketing API key; it is never shown again. (Or define LOYALTY_WIDGETS_MARKETING_API_KEY in wp-config.php.)', 'loyalty-widgets' )
		)
	);
}

/** The page itself. */
function loyalty_widgets_settings_page(): void {
	if ( ! current_user_can( 'manage_options' ) ) {
		return;
	}
	?>
	<div class="wrap">
		<h1><?php echo esc_html( get_admin_page_title() ); ?></h1>
		<p>
			<?php esc_html_e( 'Register this redirect URI for your app at Connect:', 'loyalty-widgets' ); ?>
			<code id="loyalty-widgets-redirect-uri"><?php echo esc_html( loyalty_widgets_callback_url() ); ?></code>
		</p>
		<form action="options.php" method="post">
			<?php
			settings_fields( 'loyalty_widgets' );
			do_settings_sections( 'loyalty-widgets' );
			submit_button();
			?>
		</form>
	</div>
	<?php
}

add_filter(
	'plugin_action_links_' . plugin_basename( LOYALTY_WIDGETS_FILE ),
	static function ( array $links ): array {
		$url = admin_url( 'options-general.php?page=loyalty-widgets' );
		array_unshift( $links, sprintf( '<a href="%s">%s</a>', esc_url( $url ), esc_html__( 'Settings', 'loyalty-widgets' ) ) );
		return $links;
	}
);
