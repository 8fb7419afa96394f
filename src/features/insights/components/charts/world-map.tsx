import { memo, useMemo, useState, type ComponentProps } from 'react';
import { ComposableMap, Geographies, Geography } from 'react-simple-maps';
import world from 'world-atlas/countries-110m.json';
import { formatValue } from '../../lib/format';
import type { TrendsView } from '../../lib/view-types';
import { featureKey, keyOfFeature } from './country-codes';

/** The TopoJSON topology (Geographies reads it; its types name only GeoJSON). */
const TOPOLOGY = world as unknown as ComponentProps<typeof Geographies>['geography'];

/**
 * A share of the largest value (0..1) as the country's fill: indigo-500, more opaque with more. At
 * its palest it still stands apart from the countries without data (gray-200, dark: gray-800).
 */
const fill = (share: number) => `rgba(99, 102, 241, ${(0.4 + 0.6 * share).toFixed(3)})`;

/**
 * The world map display: countries shaded by their series' value, the series' breakdown value
 * being the ISO-2 country code (breakdown by `$geoip_country_code`). Loaded in its own chunk,
 * only when this display is shown (the map's shapes are 100 kB).
 */
const WorldMap = memo(function WorldMap({ view }: { view: TrendsView }) {
  const { values, max, missing } = useMemo(() => {
    const values = new Map<string, { code: string; value: number }>();
    const missing: string[] = [];
    for (const series of view.series) {
      if (series.period === 'previous') continue;
      const code = series.breakdownValue ?? series.label;
      const key = featureKey(code);
      if (key) values.set(key, { code, value: (values.get(key)?.value ?? 0) + series.total });
      else missing.push(code);
    }
    return { values, max: Math.max(0, ...[...values.values()].map((v) => v.value)), missing };
  }, [view]);
  const [hover, setHover] = useState<string | null>(null);
  return (
    <div>
      <p className="mb-2 min-h-5 text-sm text-gray-700 dark:text-gray-300">
        {hover ?? 'Hover a country for its value.'}
      </p>
      <ComposableMap
        projection="geoEqualEarth"
        width={800}
        height={400}
        projectionConfig={{ scale: 150 }}
        className="h-auto w-full"
        aria-hidden="true"
      >
        <Geographies geography={TOPOLOGY}>
          {({ geographies }) =>
            geographies.map((geography) => {
              const entry = values.get(keyOfFeature(geography));
              const name = String(geography.properties?.name ?? '');
              const text = `${name}: ${entry ? formatValue(entry.value, view.unit) : 'no data'}`;
              return (
                <Geography
                  key={geography.rsmKey}
                  geography={geography}
                  tabIndex={-1}
                  data-country={entry?.code}
                  className={
                    entry
                      ? 'stroke-white outline-none dark:stroke-gray-950'
                      : 'fill-gray-200 stroke-white outline-none dark:fill-gray-800 dark:stroke-gray-950'
                  }
                  strokeWidth={0.5}
                  style={entry ? { fill: fill(max > 0 ? entry.value / max : 0) } : undefined}
                  onMouseEnter={() => setHover(text)}
                  onMouseLeave={() => setHover(null)}
                >
                  <title>{text}</title>
                </Geography>
              );
            })
          }
        </Geographies>
      </ComposableMap>
      <MapLegend max={max} unit={view.unit} />
      {missing.length > 0 ? (
        <p className="mt-2 text-xs text-gray-700 dark:text-gray-300">
          Not on the map (see the table): {missing.slice(0, 10).join(', ')}
          {missing.length > 10 ? ', …' : ''}
        </p>
      ) : null}
    </div>
  );
});

/** The scale under the map: the palest and the fullest shade with their values, and "no data". */
function MapLegend({ max, unit }: { max: number; unit: TrendsView['unit'] }) {
  return (
    <div
      role="group"
      aria-label="Map legend"
      className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2 text-xs text-gray-700 dark:text-gray-300"
    >
      <span className="inline-flex items-center gap-2">
        <span>{formatValue(0, unit)}</span>
        <span
          aria-hidden="true"
          className="h-2.5 w-32 rounded-sm"
          style={{ background: `linear-gradient(to right, ${fill(0)}, ${fill(1)})` }}
        />
        <span>{formatValue(max, unit)}</span>
      </span>
      <span className="inline-flex items-center gap-1.5">
        <span aria-hidden="true" className="inline-block size-2.5 rounded-sm bg-gray-200 dark:bg-gray-800" />
        No data
      </span>
    </div>
  );
}

export default WorldMap;
