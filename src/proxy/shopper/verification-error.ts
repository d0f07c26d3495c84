import { ProxyError } from '../shared/errors.ts';

/** `signin_required` (no tokens), `invalid_token` (any check refused them), `connect_unavailable` (Connect could not be asked). */
export type ShopperVerificationCode = 'signin_required' | 'invalid_token' | 'connect_unavailable';

/** Why a shopper was not verified: `code`, an HTTP `status` to answer with (401 or 502), and a message. */
export class ShopperVerificationError extends ProxyError {
  declare readonly code: ShopperVerificationCode;

  constructor(code: ShopperVerificationCode, message: string) {
    const status = code === 'connect_unavailable' ? 502 : 401;
    const challenge: Record<string, string> =
      code === 'connect_unavailable'
        ? {}
        : {
            'www-authenticate': `Bearer realm="loyalty-proxy"${code === 'invalid_token' ? ', error="invalid_token"' : ''}`,
          };
    super(status, code, message, challenge);
    this.name = 'ShopperVerificationError';
  }
}

export const refused = (message: string) => new ShopperVerificationError('invalid_token', message);
export const unavailable = (message: string) => new ShopperVerificationError('connect_unavailable', message);
