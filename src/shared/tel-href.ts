/** Digits and a leading `+` only: what a `tel:` link may carry, whatever the API sent. No Lit here: the proxy's server renderer reads it too. */
export function telHref(phone: string): string | undefined {
  const digits = phone.replace(/\D/g, '');
  return digits ? `tel:${phone.trim().startsWith('+') ? '+' : ''}${digits}` : undefined;
}
