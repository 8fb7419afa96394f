/** The builders' pickers: events, property keys and values, filters, series/steps, breakdown. */
export { BreakdownControl, type BreakdownControlProps, type BreakdownValue } from './breakdown-control';
export { EventPicker, type EventPickerProps } from './event-picker';
export { eventLabel, seriesLetter } from './labels';
export { MATH_WORDS } from './math-options';
export { PropertyFilters, type ErrorFor, type PropertyFiltersProps } from './property-filters';
export { PropertyKeyPicker, type PropertyKey, type PropertyKeyPickerProps } from './property-key-picker';
export { PropertyValueInput, type PropertyValueInputProps } from './property-value-input';
export { SeriesList, type SeriesListProps } from './series-list';
