<?php
/**
 * What this proxy shares with the Node proxy (`loyalty-widgets/proxy`): operations, variable rules,
 * documents, limits, rate limits, cache and Idempotency-Key rules, CORS headers and how upstream
 * errors are recognized. The build writes it from the Node proxy's source (scripts/proxy-contract.ts)
 * as contract.json beside this plugin's main file; nothing here repeats it.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/**
 * The contract, read once per request.
 *
 * @throws Loyalty_Widgets_Proxy_Error When the file is missing or unreadable (a plugin copied without its build).
 */
function loyalty_widgets_contract(): array {
	static $contract = null;
	if ( null === $contract ) {
		$path = dirname( LOYALTY_WIDGETS_FILE ) . '/contract.json';
		// A local file of the plugin's own, not a remote one: WP_Filesystem is for writing.
		$text     = is_readable( $path ) ? file_get_contents( $path ) : false; // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents
		$contract = is_string( $text ) ? json_decode( $text, true ) : null;
		if ( ! is_array( $contract ) ) {
			$contract = null;
			throw new Loyalty_Widgets_Proxy_Error( 500, 'internal_error', 'The Marketing proxy failed to handle the request.' );
		}
	}
	return $contract;
}

/**
 * An error answer of the proxy: `{ "error": { "code", "message" } }` with its HTTP status and headers.
 */
class Loyalty_Widgets_Proxy_Error extends Exception {
	/**
	 * The HTTP status.
	 *
	 * @var int
	 */
	public $status;

	/**
	 * The error's code, e.g. `invalid_variables`.
	 *
	 * @var string
	 */
	public $error_code;

	/**
	 * Headers of the answer (lower case names).
	 *
	 * @var array
	 */
	public $headers;

	/**
	 * False when the upstream provably did not run the operation (a coupon request may then be tried again with its key).
	 *
	 * @var bool
	 */
	public $may_have_run;

	/**
	 * The error.
	 *
	 * @param int    $status       HTTP status.
	 * @param string $error_code   The error's code.
	 * @param string $message      What the browser is told (never the key).
	 * @param array  $headers      Headers of the answer.
	 * @param bool   $may_have_run Whether the upstream may have run the operation.
	 */
	public function __construct( int $status, string $error_code, string $message, array $headers = array(), bool $may_have_run = false ) {
		parent::__construct( $message );
		$this->status       = $status;
		$this->error_code   = $error_code;
		$this->headers      = $headers;
		$this->may_have_run = $may_have_run;
	}

	/** The answer's body. */
	public function body(): string {
		return loyalty_widgets_error_body( $this->error_code, $this->getMessage() );
	}
}

/**
 * The proxy's error body.
 *
 * @param string $code    The error's code.
 * @param string $message Its message.
 */
function loyalty_widgets_error_body( string $code, string $message ): string {
	return (string) wp_json_encode(
		array(
			'error' => array(
				'code'    => $code,
				'message' => $message,
			),
		),
		JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE
	);
}

/**
 * JSON as the browser gets it.
 *
 * @param mixed $value The value.
 */
function loyalty_widgets_json( $value ): string {
	return (string) wp_json_encode( $value, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE );
}

/** Milliseconds since the epoch. */
function loyalty_widgets_now_ms(): int {
	return (int) floor( microtime( true ) * 1000 );
}
