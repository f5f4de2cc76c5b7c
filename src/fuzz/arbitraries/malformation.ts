import type fc from 'fast-check';
import type { ArgumentPath } from '../../tools/binder/invalidArgument.js';

/** How an input was broken. */
export type Malformation =
  | 'wrong_type'
  | 'missing_required'
  | 'explicit_null'
  | 'out_of_range'
  | 'not_an_integer'
  | 'huge_magnitude'
  | 'too_long'
  | 'too_short'
  | 'pattern_miss'
  | 'enum_near_miss'
  | 'extra_property'
  | 'deep_nesting'
  | 'not_an_object'
  /** A number inside the bounds that is not a multiple of multipleOf. */
  | 'not_a_multiple'
  /** A text the schema's format (one the binder checks) refuses. */
  | 'format_miss'
  /** More properties than maxProperties allows. */
  | 'too_many_properties'
  /** Fewer properties than minProperties asks for. */
  | 'too_few_properties'
  /** A key propertyNames refuses. */
  | 'bad_property_name'
  /** An item equal to an earlier one, where uniqueItems holds. */
  | 'duplicate_item'
  /** Too few items that `contains` takes. */
  | 'contains_unmet'
  /** A discriminated union's discriminator with a value no alternative has. */
  | 'unknown_discriminator'
  /**
   * A value of a type some alternative of a union has, that no alternative takes. The binder
   * answers with the refusal of the alternative that came closest, so it may name a place inside.
   */
  | 'no_alternative';

/** A broken value for a site, and where inside it the break is (empty: the site itself). */
export interface Broken {
  value: unknown;
  at: ArgumentPath;
}

/** One way to break a site: broken values to put there, or 'absent' to leave the property out. */
export interface Break {
  malformation: Malformation;
  values: fc.Arbitrary<Broken> | 'absent';
}
