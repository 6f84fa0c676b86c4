/**
 * The rules of items 3 to 12, one file per item family. Which file and function implements each spec
 * clause: the table in lib/rules/README.md (the same as in docs/rules.md, which states every rule).
 */
import { checkItem3, checkItem4 } from './kpi';
import { checkItem5 } from './ranking';
import { checkItem7, checkItem8, checkItem9, checkItem10 } from './shares';
import { checkItem11, checkItem12 } from './sources';
import type { ItemNumber, ItemResult, RuleContext } from './types';
import { checkItem6 } from './wordcloud';

/** Every item's rule, by item number (spec items 3-12). */
export const ITEM_RULES: Record<ItemNumber, (ctx: RuleContext) => ItemResult> = {
  3: checkItem3,
  4: checkItem4,
  5: checkItem5,
  6: checkItem6,
  7: checkItem7,
  8: checkItem8,
  9: checkItem9,
  10: checkItem10,
  11: checkItem11,
  12: checkItem12,
};
