import type { ColumnType, Generated } from "kysely";
import type { Int8 } from "./int8";

export interface MidjourneysTable {
  id: Generated<number>;
  code: Generated<number>;
  user_id: Generated<number>;
  action: Generated<string>;
  mj_id: Generated<string>;
  prompt: Generated<string>;
  prompt_en: Generated<string>;
  description: Generated<string>;
  state: Generated<string>;
  submit_time: Int8;
  start_time: Int8;
  finish_time: Int8;
  image_url: Generated<string>;
  status: Generated<string>;
  progress: Generated<string>;
  fail_reason: Generated<string>;
  channel_id: Generated<number>;
  quota: Int8;
  buttons: Generated<string>;
  properties: Generated<string>;
  /** Migration 0015: the token that paid, refunded with the user when the task fails. */
  token_id: Generated<number>;
  refunded_at: Int8;
}

export interface TasksTable {
  id: ColumnType<number, number | undefined, never>;
  created_at: Int8;
  updated_at: Int8;
  task_id: Generated<string>;
  platform: Generated<string>;
  user_id: Generated<number>;
  channel_id: Generated<number>;
  quota: Int8;
  action: Generated<string>;
  status: Generated<string>;
  fail_reason: Generated<string>;
  submit_time: Int8;
  start_time: Int8;
  finish_time: Int8;
  progress: Generated<string>;
  properties: unknown;
  data: unknown;
  /** Migration 0015: the token that paid, refunded with the user when the task fails. */
  token_id: Generated<number>;
  refunded_at: Int8;
}
