// SPDX-FileCopyrightText: 2026 pisti developers
// SPDX-License-Identifier: MIT
// The buttons of a device test (run-cp.mjs --autoplay): a plan of rules in the
// environment variable PISTI_PLAN (JSON, written by tools/devicetest.py), each
// {screen, count?, keys?, repeat?, step?, delay?, stop?}; at each "mem SCREEN"
// line the first rule whose screen matches ("*": any) and whose count is absent
// or equal to how often that screen came so far is what the Pico's person does.
const plan = JSON.parse(process.env.PISTI_PLAN || '[]');

export default function policy(screen, count) {
  for (const rule of plan) {
    if ((rule.screen === screen || rule.screen === '*') && (rule.count == null || rule.count === count)) {
      return rule;
    }
  }
  return {};
}
