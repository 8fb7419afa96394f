/**
 * What every builder panel (trends, funnels, retention, paths) is given: the project, the
 * builder's state (the contract's input type of the kind's parameters, exactly what the URL
 * holds), a way to change it, and the error (client check or the server's 400) of a field,
 * named as the API names it (`events__0__math_property`, `formula`, `interval`, `date_from`).
 */
export type ErrorFor = (attr: string) => string | undefined;

export interface PanelProps<S> {
  projectId: number;
  state: S;
  onChange: (next: S) => void;
  errorFor: ErrorFor;
}
