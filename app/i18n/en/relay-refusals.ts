/** English for the relay's own refusals on /v1 (admission, token checks, rate limits). */
export const relayRefusalMessages: Record<string, string> = {
  该渠道已被禁用: "This channel is disabled",
  "当前分组 {{group}} 下对于模型 {{model}} 无可用渠道":
    "No channel is available for model {{model}} in group {{group}}",
  "模型 {{model}} 倍率或价格未配置，请联系管理员设置":
    "Model {{model}} has no ratio or price; please ask the administrator to set one",
  用户额度不足: "The user's quota is insufficient",
  该令牌额度已用尽: "This token's quota is used up",
  "计费服务繁忙，请稍后再试": "Billing is busy, please try again later",
  "可用渠道的所有密钥都已达到并发或每分钟请求数上限，请稍后再试":
    "Every key of the available channels is at its concurrency or per-minute limit, please try again later",
  "渠道的上游拒绝了渠道自身的凭证（上游状态 {{status}}），请联系管理员":
    "The channel's upstream refused the channel's own credentials (upstream status {{status}}); please contact the administrator",
  上游响应超时: "The upstream did not answer in time",
  请求上游地址失败: "Requesting the upstream address failed",
  未提供令牌: "No token given",
  该令牌已过期: "This token has expired",
  该令牌状态不可用: "This token is not usable in its status",
  "您的 IP 不在令牌允许访问的列表中": "Your IP is not on the token's allow-list",
  普通用户不支持指定渠道: "Common users cannot pick a channel",
  "无效的渠道 ID": "Invalid channel ID",
  "该令牌无权访问模型 {{model}}": "This token may not use the model {{model}}",
  "令牌分组 {{group}} 已被禁用": "The token group {{group}} is disabled",
  "分组 {{group}} 已被弃用": "The group {{group}} is retired",
  "{{message}}，请 {{seconds}} 秒后重试": "{{message}}; please retry in {{seconds}} seconds",
  "该令牌已达到每分钟请求数限制（RPM {{rpm}}）": "This token has reached its requests-per-minute limit (RPM {{rpm}})",
  "该令牌已达到每分钟 Token 数限制（TPM {{tpm}}）": "This token has reached its tokens-per-minute limit (TPM {{tpm}})",
  "您已达到总请求数限制：{{minutes}}分钟内最多请求{{count}}次，包括失败次数，请检查您的请求是否正确":
    "You have reached the total request limit: at most {{count}} requests in {{minutes}} minutes, failures included; please check that your requests are right",
  "您已达到请求数限制：{{minutes}}分钟内最多请求{{count}}次":
    "You have reached the request limit: at most {{count}} requests in {{minutes}} minutes",
  // Native ingress (Anthropic, Gemini, Responses, Realtime).
  "无效的参数: {{field}}": "Invalid parameter: {{field}}",
  "无效的参数: contents": "Invalid parameter: contents",
  "无效的参数: generationConfig": "Invalid parameter: generationConfig",
  "无效的参数: input": "Invalid parameter: input",
  "渠道 #{{id}} 未设置可用的 Base URL": "Channel #{{id}} has no usable Base URL",
  "渠道 #{{id}} 未设置 Base URL": "Channel #{{id}} has no Base URL set",
  "上游拒绝实时连接（{{status}}）": "The upstream refused the realtime connection ({{status}})",
};
