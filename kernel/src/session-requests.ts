/** The requests the console session answers; kept apart so kernel start need not load the session. */
export const SESSION_REQUESTS = [
  'execute_request',
  'complete_request',
  'inspect_request',
  'is_complete_request',
  'interrupt_request',
  'comm_info_request',
  'comm_open',
  'comm_msg',
  'comm_close',
  'history_request'
] as const;
