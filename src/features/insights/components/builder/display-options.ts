import type { DisplayType } from '@/contract/analytics-params';

/** The trend displays (the contract's DISPLAY_TYPES) in words, in the order the select lists them. */
export const DISPLAY_LABELS: Record<DisplayType, string> = {
  ActionsLineGraph: 'Line chart',
  ActionsLineGraphCumulative: 'Cumulative line',
  ActionsAreaGraph: 'Area (stacked)',
  ActionsTable: 'Table',
  ActionsPie: 'Pie',
  ActionsBar: 'Bar chart (over time)',
  ActionsBarValue: 'Bar by value',
  WorldMap: 'World map',
  BoldNumber: 'Number',
};

/** The breakdown the world map needs: the country code (an event property). */
export const WORLD_MAP_BREAKDOWN = '$geoip_country_code';
