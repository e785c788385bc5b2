/**
 * The spec's display strings in one place, so a second locale can be added without hunting
 * through routes. Keys name the situation, values are the spec's exact Chinese text.
 */
export const messages = {
  loginExpired: "未登录或登录已过期，请重新登录！",
  loginEmpty: "请输入用户名和密码！",
  loginFailed: "用户名或密码错误，或用户已被封禁",
  loginSuccess: "登录成功！",
  loginCookieRejected: "登录成功，但浏览器没有保存登录 Cookie，因此仍未登录。请允许本站使用 Cookie；若经反向代理访问，请管理员检查 X-Forwarded-Proto 与 TRUST_PROXY 设置。",
  usernameHasHash: "用户名不能包含 # 字符",
  passwordLoginDisabled: "管理员关闭了密码登录",
  defaultPassword: "您正在使用默认密码！请立刻修改默认密码！",
  registerSuccess: "注册成功！",
  registerDisabled: "管理员关闭了新用户注册",
  passwordRegisterDisabled: "管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册",
  passwordTooShort: "密码长度不得小于 8 位！",
  passwordMismatch: "两次输入的密码不一致",
  passwordMismatchSelf: "两次输入的密码不一致！",
  usernameRequired: "请输入用户名",
  passwordRequired: "请输入密码",
  usernameTaken: "用户名已存在，或已注销",
  usernameTooLong: "用户名长度不得超过 12 位",
  emailRequired: "请输入邮箱地址",
  emailInvalid: "邮箱地址格式错误",
  emailDomainNotAllowed: "管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中",
  verificationCodeRequired: "请输入验证码",
  verificationCodeWrong: "验证码错误或已过期",
  turnstileWaiting: "请稍后几秒重试，Turnstile 正在检查用户环境！",
  tooManyRequests: "错误：请求次数过多，请稍后再试！",
  serverError: "错误：服务器内部错误，请联系管理员！",
  notFound: "页面不存在",
  notFoundHint: "请检查你的浏览器地址是否正确",
  forbidden: "无权进行此操作，权限不足",
  banned: "用户已被封禁",
  accountDeleted: "账户已删除！",
  passwordChanged: "密码修改成功！",
  oldPasswordWrong: "原密码错误",
  oldPasswordRequired: "修改密码需要提供原密码",
  rootCannotDelete: "不能删除超级管理员账户",
  deleteConfirmPrompt: "请输入你的账户名以确认删除！",
  userUpdated: "用户信息更新成功！",
  // Not in the spec (it only says a deregistered row has no operations): the /api refusal for one.
  userDeregistered: "用户已注销，无法再进行操作",
  operationDone: "操作成功完成！",
  saved: "保存成功",
  logoutDone: "注销成功!",
  // Not in the spec: shown to admins when settlements sit in the billing quarantine (decision 007).
  billingQuarantined: "有 {n} 条结算记录无法写入数据库，已隔离保存在 {dir}，均未计费；请核对后手工处理。",
  // User management (/user, issue 12).
  userCreated: "用户账户创建成功！",
  userPasswordHint: "至少 8 位",
} as const;

export type MessageKey = keyof typeof messages;
