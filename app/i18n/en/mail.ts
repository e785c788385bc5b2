/** English for the mails: subject, plain text and HTML bodies. HTML values arrive escaped. */
export const mailMessages: Record<string, string> = {
  "{{site}} 邮箱验证": "{{site}} email verification",
  "您好，您正在进行 {{site}} 邮箱验证。\n您的验证码为：{{code}}\n验证码 {{minutes}} 分钟内有效，如果不是本人操作，请忽略本邮件。":
    "Hello, you are verifying your email address for {{site}}.\nYour verification code is: {{code}}\nThe code is valid for {{minutes}} minutes. If this was not you, please ignore this mail.",
  "<p>您好，您正在进行 {{site}} 邮箱验证。</p><p>您的验证码为：<strong>{{code}}</strong></p><p>验证码 {{minutes}} 分钟内有效，如果不是本人操作，请忽略本邮件。</p>":
    "<p>Hello, you are verifying your email address for {{site}}.</p><p>Your verification code is: <strong>{{code}}</strong></p><p>The code is valid for {{minutes}} minutes. If this was not you, please ignore this mail.</p>",
  "{{site}} 密码重置": "{{site}} password reset",
  "您好，您正在进行 {{site}} 密码重置。\n请在浏览器中打开下面的链接完成重置：\n{{link}}\n重置链接 {{minutes}} 分钟内有效，只能使用一次；如果不是本人操作，请忽略本邮件。":
    "Hello, you are resetting your {{site}} password.\nOpen the link below in your browser to finish:\n{{link}}\nThe link is valid for {{minutes}} minutes and works once. If this was not you, please ignore this mail.",
  '<p>您好，您正在进行 {{site}} 密码重置。</p><p>点击 <a href="{{link}}">此处</a> 进行密码重置，或将下面的链接复制到浏览器中打开：<br>{{link}}</p><p>重置链接 {{minutes}} 分钟内有效，只能使用一次；如果不是本人操作，请忽略本邮件。</p>':
    '<p>Hello, you are resetting your {{site}} password.</p><p>Click <a href="{{link}}">here</a> to reset it, or copy the link below into your browser:<br>{{link}}</p><p>The link is valid for {{minutes}} minutes and works once. If this was not you, please ignore this mail.</p>',
  "{{site}} 额度提醒：您的额度即将用尽": "{{site}} quota reminder: your quota is nearly used up",
  "您的额度即将用尽，当前剩余额度为 {{left}}，为了不影响您的使用，请及时充值。\n充值链接：{{link}}":
    "Your quota is nearly used up: {{left}} left. Please top up so that nothing stops working.\nTop-up link: {{link}}",
  '<p>您的额度即将用尽，当前剩余额度为 {{left}}，为了不影响您的使用，请及时充值。</p><p>充值链接：<a href="{{link}}">{{link}}</a></p>':
    '<p>Your quota is nearly used up: {{left}} left. Please top up so that nothing stops working.</p><p>Top-up link: <a href="{{link}}">{{link}}</a></p>',
  "通道「{{name}}」（#{{id}}）已被启用": "Channel “{{name}}” (#{{id}}) was enabled",
  "通道「{{name}}」（#{{id}}）已被禁用，原因：{{reason}}":
    "Channel “{{name}}” (#{{id}}) was disabled, reason: {{reason}}",
  "另有 {{count}} 个通道的状态变化未列出，请在渠道页查看。":
    "{{count}} more channel changes are not listed; see the channels page.",
  "{{site}} 通道状态变更：禁用 {{disabled}} 个，启用 {{enabled}} 个":
    "{{site}} channel changes: {{disabled}} disabled, {{enabled}} enabled",
};
