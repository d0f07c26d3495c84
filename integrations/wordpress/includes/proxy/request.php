<?php
/**
 * The browser's call: a POST's JSON body or a GET's query read and checked against the contract
 * (content type, size, the operation named, its variables typed and checked), and a GET's validators.
 *
 * @package LoyaltyWidgets
 */

defined( 'ABSPATH' ) || exit;

/**
 * The request's query string as the browser sent it, without WordPress's own `rest_route` (plain
 * permalinks): PHP's $_GET keeps only the last of a repeated name, which the protocol refuses.
 */
function loyalty_widgets_query_string(): array {
	$pairs = array();
	$query = isset( $_SERVER['QUERY_STRING'] ) ? (string) $_SERVER['QUERY_STRING'] : ''; // phpcs:ignore WordPress.Security.ValidatedSanitizedInput -- parsed and checked below, as the protocol's variables.
	foreach ( explode( '&', $query ) as $pair ) {
		if ( '' === $pair ) {
			continue;
		}
		list( $name, $value ) = array_pad( explode( '=', $pair, 2 ), 2, '' );
		$name                 = urldecode( $name );
		if ( 'rest_route' !== $name ) {
			$pairs[] = array( $name, urldecode( $value ) );
		}
	}
	return $pairs;
}

/**
 * A read sent as GET: `operation` names a query, every other parameter is one of its variables, given
 * once, typed by the contract's rules (an integer's digits, true or false, or the text).
 *
 * @param array $pairs The query's `[ name, value ]` pairs, in order.
 * @return array `[ name, variables ]`.
 * @throws Loyalty_Widgets_Proxy_Error For anything else.
 */
function loyalty_widgets_read_query_string( array $pairs ): array {
	$contract = loyalty_widgets_contract();
	$names    = array_column( array_filter( $pairs, static fn( array $pair ): bool => 'operation' === $pair[0] ), 1 );
	if ( 1 !== count( $names ) ) {
		throw new Loyalty_Widgets_Proxy_Error( 400, 'bad_request', 'Name one operation: ?operation=<name>&<variable>=<value>.' );
	}
	$name = $names[0];
	if ( ! isset( $contract['operations'][ $name ] ) ) {
		throw new Loyalty_Widgets_Proxy_Error( 400, 'unknown_operation', 'Unknown operation "' . loyalty_widgets_head( $name ) . '"; known: ' . implode( ', ', array_keys( $contract['operations'] ) ) . '.' );
	}
	$operation = $contract['operations'][ $name ];
	if ( 'query' !== $operation['kind'] ) {
		throw new Loyalty_Widgets_Proxy_Error( 405, 'method_not_allowed', '"' . $name . '" changes data: send it as POST with a JSON body.', array( 'allow' => 'POST, OPTIONS' ) );
	}
	$given = array();
	foreach ( $pairs as list( $key, $text ) ) {
		if ( 'operation' === $key ) {
			continue;
		}
		$rule = $operation['variables'][ $key ] ?? null;
		if ( null === $rule ) {
			throw new Loyalty_Widgets_Proxy_Error( 400, 'invalid_variables', 'Unknown variable "' . loyalty_widgets_head( $key ) . '".' );
		}
		if ( array_key_exists( $key, $given ) ) {
			throw new Loyalty_Widgets_Proxy_Error( 400, 'invalid_variables', 'Variable "' . $key . '" is given twice.' );
		}
		if ( 'int' === $rule['type'] ) {
			if ( ! preg_match( '/^-?\d{1,15}$/', $text ) ) {
				throw new Loyalty_Widgets_Proxy_Error( 400, 'invalid_variables', 'Variable "' . $key . '" must be an integer.' );
			}
			$text = (int) $text;
		} elseif ( 'string' !== $rule['type'] ) {
			if ( 'true' !== $text && 'false' !== $text ) {
				throw new Loyalty_Widgets_Proxy_Error( 400, 'invalid_variables', 'Variable "' . $key . '" must be true or false.' );
			}
			$text = 'true' === $text;
		}
		$given[ $key ] = $text;
	}
	return array( $name, loyalty_widgets_check_variables( $operation['variables'], $given, $contract['limits']['maxStringLength'] ) );
}

/**
 * A read's answer to a GET: its ETag (a digest of the body), or 304 with no body when the request's
 * If-None-Match names it, so a browser or a CDN revalidating its copy is sent nothing again.
 *
 * @param WP_REST_Request $request The request.
 * @param string          $body    The answer's body.
 * @param array           $headers The answer's headers.
 */
function loyalty_widgets_validated( WP_REST_Request $request, string $body, array $headers ): array {
	$etag  = '"' . substr( hash( 'sha256', $body ), 0, 32 ) . '"';
	$known = array_map( 'trim', explode( ',', (string) $request->get_header( 'if-none-match' ) ) );
	$headers['etag'] = $etag;
	if ( array_intersect( $known, array( $etag, 'W/' . $etag, '*' ) ) ) {
		return array( 304, '', $headers );
	}
	return array( 200, $body, $headers );
}

/**
 * The browser's call: content type, size and shape checked, the operation named, its variables checked.
 *
 * @param WP_REST_Request $request The request.
 * @return array `[ name, variables ]`.
 * @throws Loyalty_Widgets_Proxy_Error For anything else.
 */
function loyalty_widgets_read_call( WP_REST_Request $request ): array {
	$contract = loyalty_widgets_contract();
	$max      = $contract['limits']['maxBodyBytes'];
	$type     = strtolower( trim( explode( ';', (string) $request->get_header( 'content-type' ) )[0] ) );
	if ( 'application/json' !== $type ) {
		throw new Loyalty_Widgets_Proxy_Error( 415, 'unsupported_media_type', 'Send the request as Content-Type: application/json.' );
	}
	$encoding = $request->get_header( 'content-encoding' );
	if ( null !== $encoding && 'identity' !== strtolower( trim( $encoding ) ) ) {
		throw new Loyalty_Widgets_Proxy_Error( 415, 'unsupported_media_type', 'Send the request body uncompressed (no Content-Encoding).' );
	}
	$declared = $request->get_header( 'content-length' );
	if ( null !== $declared && ( ! ctype_digit( $declared ) ) ) {
		throw new Loyalty_Widgets_Proxy_Error( 400, 'bad_request', 'Invalid Content-Length.' );
	}
	$body = (string) $request->get_body();
	if ( null !== $declared && (int) $declared > $max || strlen( $body ) > $max ) {
		throw new Loyalty_Widgets_Proxy_Error( 413, 'payload_too_large', "The request body must be at most {$max} bytes." );
	}
	// Decoded twice: as objects to tell `{}` from `[]`, and as arrays to read the values.
	$shape = json_decode( $body );
	if ( JSON_ERROR_NONE !== json_last_error() ) {
		throw new Loyalty_Widgets_Proxy_Error( 400, 'bad_request', 'The request body is not valid JSON.' );
	}
	if ( ! is_object( $shape ) ) {
		throw new Loyalty_Widgets_Proxy_Error( 400, 'bad_request', 'The request body must be a JSON object { "operation", "variables" }.' );
	}
	$call = (array) json_decode( $body, true );
	if ( array_key_exists( 'query', $call ) ) {
		throw new Loyalty_Widgets_Proxy_Error( 400, 'bad_request', 'GraphQL documents are not accepted; send a named "operation" and its "variables".' );
	}
	foreach ( array_keys( $call ) as $field ) {
		if ( 'operation' !== $field && 'variables' !== $field ) {
			throw new Loyalty_Widgets_Proxy_Error( 400, 'bad_request', 'Unknown field "' . loyalty_widgets_head( (string) $field ) . '"; send only "operation" and "variables".' );
		}
	}
	$name = $call['operation'] ?? null;
	if ( ! is_string( $name ) ) {
		throw new Loyalty_Widgets_Proxy_Error( 400, 'bad_request', '"operation" must be the name of an operation.' );
	}
	if ( ! isset( $contract['operations'][ $name ] ) ) {
		throw new Loyalty_Widgets_Proxy_Error( 400, 'unknown_operation', 'Unknown operation "' . loyalty_widgets_head( $name ) . '"; known: ' . implode( ', ', array_keys( $contract['operations'] ) ) . '.' );
	}
	$given = $call['variables'] ?? null;
	if ( null !== $given && ! is_object( $shape->variables ) ) {
		$given = false; // Not an object: refused below.
	}
	return array( $name, loyalty_widgets_check_variables( $contract['operations'][ $name ]['variables'], $given, $contract['limits']['maxStringLength'] ) );
}

/**
 * The first 64 characters of a name the browser sent, for a message.
 *
 * @param string $text The name.
 */
function loyalty_widgets_head( string $text ): string {
	return preg_match( '/^.{0,64}/su', $text, $match ) ? $match[0] : '';
}

/**
 * The variables checked against the operation's rules, nulls dropped.
 *
 * @param array $rules      The operation's variable rules.
 * @param mixed $given      What the browser sent.
 * @param int   $max_string The default longest string.
 * @throws Loyalty_Widgets_Proxy_Error 400 `invalid_variables`.
 */
function loyalty_widgets_check_variables( array $rules, $given, int $max_string ): array {
	$invalid = static function ( string $message ) {
		throw new Loyalty_Widgets_Proxy_Error( 400, 'invalid_variables', $message );
	};
	if ( null === $given ) {
		$given = array();
	}
	if ( ! is_array( $given ) ) {
		$invalid( '"variables" must be a JSON object.' );
	}
	foreach ( array_keys( $given ) as $name ) {
		if ( ! isset( $rules[ $name ] ) ) {
			$invalid( 'Unknown variable "' . loyalty_widgets_head( (string) $name ) . '".' );
		}
	}
	$checked = array();
	foreach ( $rules as $name => $rule ) {
		$value = $given[ $name ] ?? null;
		if ( null === $value ) {
			if ( ! empty( $rule['required'] ) ) {
				$invalid( "Variable \"{$name}\" is required." );
			}
			continue;
		}
		switch ( $rule['type'] ) {
			case 'string':
				$max = $rule['maxLength'] ?? $max_string;
				if ( ! is_string( $value ) ) {
					$invalid( "Variable \"{$name}\" must be a string." );
				}
				// Lengths in UTF-16 code units, as JavaScript counts them.
				$length = strlen( (string) iconv( 'UTF-8', 'UTF-16LE', $value ) ) / 2;
				if ( 0 === $length || $length > $max ) {
					$invalid( "Variable \"{$name}\" must be 1 to {$max} characters long." );
				}
				break;
			case 'int':
				if ( ! is_int( $value ) && ! ( is_float( $value ) && floor( $value ) === $value ) ) {
					$invalid( "Variable \"{$name}\" must be an integer." );
				}
				if ( $value < $rule['min'] || $value > $rule['max'] ) {
					$invalid( "Variable \"{$name}\" must be between {$rule['min']} and {$rule['max']}." );
				}
				$value = (int) $value;
				break;
			case 'boolean':
				if ( ! is_bool( $value ) ) {
					$invalid( "Variable \"{$name}\" must be a boolean." );
				}
				break;
		}
		$checked[ $name ] = $value;
	}
	return $checked;
}
