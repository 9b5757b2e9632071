/** A config given as YAML text, or as the body the operation takes (`{ config }`, `{ config_yaml }`, …). */
export type ConfigInput<Body> = string | Body;

/** The body for a config given as YAML text or as a body already. */
export const configBody = <Body>(input: ConfigInput<Body>): Body | { config_yaml: string } =>
  typeof input === 'string' ? { config_yaml: input } : input;
