/** The ordinary encodings a secret can hide behind in a text ('plain': none). */
export type SecretEncoding = 'plain' | 'zero-width' | 'url' | 'escaped' | 'quoted' | 'base64' | 'hex';

/** A text decoded one way, with a map from each of its characters back to the text it was decoded from. */
export interface DecodedView {
  encoding: SecretEncoding;
  text: string;
  /** The index in the original text that the view's character at `index` came from. */
  origin(index: number): number;
}
