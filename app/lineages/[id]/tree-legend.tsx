import { TONES, type Tone } from './tones.ts';

export function TreeLegend() {
  return (
    <ul aria-label="Node colours" className="flex flex-wrap items-center gap-x-4 gap-y-1.5 text-xs text-zinc-600">
      {(Object.entries(TONES) as [Tone, (typeof TONES)[Tone]][]).map(([tone, style]) => (
        <li key={tone} className="flex items-center gap-1.5">
          <svg aria-hidden width="14" height="10">
            <rect x="0.75" y="0.75" width="12.5" height="8.5" rx="2" fill={style.fill} stroke={style.stroke} strokeWidth="1.5" />
          </svg>
          {style.label}
        </li>
      ))}
      <li className="flex items-center gap-1.5">
        <svg aria-hidden width="38" height="10">
          <rect x="0.75" y="0.75" width="36.5" height="8.5" rx="2" fill="var(--color-white)" stroke="var(--color-red-600)" strokeWidth="1.5" />
        </svg>
        small: an attempt the generation did not keep
      </li>
    </ul>
  );
}
