/**
 * ISO 3166-1 alpha-2 → numeric codes of the countries world-atlas 2's `countries-110m.json`
 * draws (its features' ids are the numeric codes, as text with leading zeros). Kosovo has no
 * numeric code there: it is matched by the feature's name.
 */
const TABLE =
  'AE784 AF004 AL008 AM051 AO024 AQ010 AR032 AT040 AU036 AZ031 BA070 BD050 BE056 BF854 BG100 BI108 BJ204 BN096 BO068 BR076 ' +
  'BS044 BT064 BW072 BY112 BZ084 CA124 CD180 CF140 CG178 CH756 CI384 CL152 CM120 CN156 CO170 CR188 CU192 CY196 CZ203 DE276 ' +
  'DJ262 DK208 DO214 DZ012 EC218 EE233 EG818 EH732 ER232 ES724 ET231 FI246 FJ242 FK238 FR250 GA266 GB826 GE268 GH288 GL304 ' +
  'GM270 GN324 GQ226 GR300 GT320 GW624 GY328 HN340 HR191 HT332 HU348 ID360 IE372 IL376 IN356 IQ368 IR364 IS352 IT380 JM388 ' +
  'JO400 JP392 KE404 KG417 KH116 KP408 KR410 KW414 KZ398 LA418 LB422 LK144 LR430 LS426 LT440 LU442 LV428 LY434 MA504 MD498 ' +
  'ME499 MG450 MK807 ML466 MM104 MN496 MR478 MW454 MX484 MY458 MZ508 NA516 NC540 NE562 NG566 NI558 NL528 NO578 NP524 NZ554 ' +
  'OM512 PA591 PE604 PG598 PH608 PK586 PL616 PR630 PS275 PT620 PY600 QA634 RO642 RS688 RU643 RW646 SA682 SB090 SD729 SE752 ' +
  'SI705 SK703 SL694 SN686 SO706 SR740 SS728 SV222 SY760 SZ748 TD148 TF260 TG768 TH764 TJ762 TL626 TM795 TN788 TR792 TT780 ' +
  'TW158 TZ834 UA804 UG800 US840 UY858 UZ860 VE862 VN704 VU548 YE887 ZA710 ZM894 ZW716';

const NUMERIC = new Map(TABLE.split(' ').map((entry) => [entry.slice(0, 2), entry.slice(2)] as const));
/** Countries of the map without a numeric id, by the feature's name. */
const BY_NAME: Record<string, string> = { XK: 'Kosovo' };
/** Codes some sources use for a country the map has under its ISO code. */
const ALIASES: Record<string, string> = { UK: 'GB' };

/** The map feature key of an ISO-2 code (`id:276`, `name:Kosovo`), null when the map does not draw it. */
export function featureKey(code: string): string | null {
  const iso = code.trim().toUpperCase();
  const canonical = ALIASES[iso] ?? iso;
  const numeric = NUMERIC.get(canonical);
  if (numeric) return `id:${numeric}`;
  return BY_NAME[canonical] ? `name:${BY_NAME[canonical]}` : null;
}

/** The feature key of a map feature (its id, else its name). */
export const keyOfFeature = (feature: { id?: string | number; properties?: { name?: string } | null }) =>
  feature.id !== undefined ? `id:${String(feature.id).padStart(3, '0')}` : `name:${feature.properties?.name ?? ''}`;
