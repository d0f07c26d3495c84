/**
 * Amplify's `Model*FilterInput` semantics over one record, as the DynamoDB filter expression they
 * become: conditions on the fields are ANDed, with `and`, `or` and `not` nesting. A condition on a
 * missing (null) attribute is false except `ne` and `attributeExists: false`.
 */
type Scalar = string | number | boolean;

export interface ModelCondition {
  eq?: Scalar | null;
  ne?: Scalar | null;
  le?: Scalar | null;
  lt?: Scalar | null;
  ge?: Scalar | null;
  gt?: Scalar | null;
  contains?: string | null;
  notContains?: string | null;
  between?: Array<Scalar | null> | null;
  beginsWith?: string | null;
  attributeExists?: boolean | null;
}

export interface ModelFilter {
  and?: Array<ModelFilter | null> | null;
  or?: Array<ModelFilter | null> | null;
  not?: ModelFilter | null;
  [field: string]: ModelCondition | ModelFilter | Array<ModelFilter | null> | null | undefined;
}

function holds(value: unknown, condition: ModelCondition): boolean {
  const present = value !== null && value !== undefined;
  for (const [operator, operand] of Object.entries(condition)) {
    if (operand === null || operand === undefined) continue;
    if (operator === 'attributeExists') {
      if (present !== operand) return false;
      continue;
    }
    if (operator === 'ne') {
      if (value === operand) return false;
      continue;
    }
    if (!present) return false;
    const v = value as Scalar;
    const ok = (() => {
      switch (operator) {
        case 'eq':
          return v === operand;
        case 'le':
          return v <= (operand as Scalar);
        case 'lt':
          return v < (operand as Scalar);
        case 'ge':
          return v >= (operand as Scalar);
        case 'gt':
          return v > (operand as Scalar);
        case 'contains':
          return String(v).includes(operand as string);
        case 'notContains':
          return !String(v).includes(operand as string);
        case 'beginsWith':
          return String(v).startsWith(operand as string);
        case 'between': {
          const [low, high] = operand as Array<Scalar | null>;
          return low != null && high != null && v >= low && v <= high;
        }
        default:
          return true;
      }
    })();
    if (!ok) return false;
  }
  return true;
}

export function matchesFilter(record: Record<string, unknown>, filter: ModelFilter | null | undefined): boolean {
  if (!filter) return true;
  for (const [key, part] of Object.entries(filter)) {
    if (part === null || part === undefined) continue;
    if (key === 'and') {
      if (!(part as Array<ModelFilter | null>).every((inner) => matchesFilter(record, inner))) return false;
    } else if (key === 'or') {
      const options = (part as Array<ModelFilter | null>).filter(Boolean);
      if (options.length > 0 && !options.some((inner) => matchesFilter(record, inner))) return false;
    } else if (key === 'not') {
      if (matchesFilter(record, part as ModelFilter)) return false;
    } else if (!holds(record[key], part as ModelCondition)) {
      return false;
    }
  }
  return true;
}
