/**
 * Reading the business accounts of the proxy's answers, as ./responses.ts reads campaigns: apart from
 * them, so that only what shows businesses (the directory, `MarketingClient`) carries it.
 */
import { safeUrl } from '../shared/safe-url.ts';
import { isObject, name, object, page, text, urlOf } from './responses.ts';
import type { BusinessAccount, Page } from './types.ts';

export function toBusinessAccount(value: unknown, path = 'businessAccount'): BusinessAccount {
  const account = object(value, path);
  const { address, customProperties } = account;
  return {
    id: text(account.id),
    name: name(account.name, `${path}.name`),
    description: text(account.description),
    category: text(account.category),
    phoneNumber: text(account.phoneNumber),
    websiteUrl: safeUrl(account.websiteUrl),
    logoUrl: urlOf(account.logo),
    address: isObject(address)
      ? { streetAddress: text(address.streetAddress), postalCode: text(address.postalCode), city: text(address.city) }
      : null,
    // Only an explicit `false` counts as approved: an account we cannot classify is not shown.
    pending: account.pending !== false,
    customProperties: Array.isArray(customProperties)
      ? customProperties.flatMap((property) =>
          isObject(property) && typeof property.key === 'string'
            ? [{ key: property.key, value: text(property.value) }]
            : [],
        )
      : [],
  };
}

export const parseBusinessAccountPage = (data: Record<string, unknown>): Page<BusinessAccount> =>
  page(data.businessAccounts, 'businessAccounts', toBusinessAccount);
