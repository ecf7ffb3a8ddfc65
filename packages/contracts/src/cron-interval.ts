/**
 * The shortest gap a cron schedule can have between two runs, from its time-of-day fields alone.
 * Every run day repeats the same times (hours x minutes x seconds), so the gaps inside a day are
 * the gaps of that product, and a day's last run is followed at the earliest by the next day's
 * first. Sampling the next few runs would miss a burst further away (e.g. `0,59 0,23 1,31 * *`
 * runs a minute apart only from a 31st to a 1st); this bound cannot be hidden that way.
 */

export interface TimeFields {
  second: readonly number[];
  minute: readonly number[];
  hour: readonly number[];
}

const DAY_SECONDS = 86_400;

function sortedUnique(values: readonly number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

function smallestStep(values: readonly number[]): number {
  let smallest = Infinity;
  for (let i = 1; i < values.length; i++) smallest = Math.min(smallest, values[i]! - values[i - 1]!);
  return smallest;
}

/**
 * Seconds: the smallest gap between runs on the same day, or from one day's last run to the next
 * day's first when the day has more than one (one run a day: a day apart at the least, returned
 * as Infinity since the caller's sampled gaps then say more). A lower bound of the real shortest
 * gap, equal to it whenever two consecutive days both run.
 */
export function shortestTimeOfDayGap(fields: TimeFields): number {
  const seconds = sortedUnique(fields.second);
  const minutes = sortedUnique(fields.minute);
  const hours = sortedUnique(fields.hour);
  if (seconds.length === 0 || minutes.length === 0 || hours.length === 0) return Infinity;
  const secondSpan = seconds.at(-1)! - seconds[0]!;
  const minuteSpan = (minutes.at(-1)! - minutes[0]!) * 60 + secondSpan;
  const withinMinute = smallestStep(seconds);
  // From the last second of one run minute to the first of the next one in the same hour.
  const acrossMinutes = smallestStep(minutes) * 60 - secondSpan;
  // From the last run of one run hour to the first of the next one.
  const acrossHours = smallestStep(hours) * 3_600 - minuteSpan;
  const runsPerDay = seconds.length * minutes.length * hours.length;
  const first = hours[0]! * 3_600 + minutes[0]! * 60 + seconds[0]!;
  const last = hours.at(-1)! * 3_600 + minutes.at(-1)! * 60 + seconds.at(-1)!;
  const acrossMidnight = runsPerDay > 1 ? DAY_SECONDS - last + first : Infinity;
  return Math.min(withinMinute, acrossMinutes, acrossHours, acrossMidnight);
}
