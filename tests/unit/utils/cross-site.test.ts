import { describe, expect, it } from "vitest";
import { crossSiteRefusal } from "~/utils/cross-site.server";

const lookup = (headers: Record<string, string>) => (name: string) => headers[name];
const own = { host: "127.0.0.1:3000" };

describe("the cross-site guard", () => {
  it("lets reads, same-origin posts and header-less scripts through", () => {
    expect(
      crossSiteRefusal("GET", "/logout", lookup({ ...own, origin: "https://evil.example" }), false),
    ).toBeUndefined();
    expect(
      crossSiteRefusal("POST", "/logout", lookup({ ...own, "sec-fetch-site": "same-origin" }), false),
    ).toBeUndefined();
    expect(
      crossSiteRefusal("POST", "/logout", lookup({ ...own, origin: "http://127.0.0.1:3000" }), false),
    ).toBeUndefined();
    expect(crossSiteRefusal("POST", "/logout", lookup(own), false)).toBeUndefined();
    expect(
      crossSiteRefusal(
        "PUT",
        "/api/option/",
        lookup({ ...own, authorization: "abc", origin: "https://tool.example" }),
        false,
      ),
    ).toBeUndefined();
  });

  it("refuses other sites, other schemes and opaque origins", () => {
    expect(
      crossSiteRefusal("POST", "/logout", lookup({ ...own, "sec-fetch-site": "cross-site" }), false),
    ).toBeDefined();
    expect(crossSiteRefusal("POST", "/logout", lookup({ ...own, "sec-fetch-site": "same-site" }), false)).toBeDefined();
    expect(
      crossSiteRefusal("DELETE", "/api/token/1", lookup({ ...own, origin: "https://evil.example" }), false),
    ).toBeDefined();
    expect(
      crossSiteRefusal("POST", "/theme", lookup({ ...own, origin: "https://127.0.0.1:3000" }), false),
    ).toBeDefined();
    expect(crossSiteRefusal("POST", "/theme", lookup({ ...own, origin: "null" }), false)).toBeDefined();
    expect(
      crossSiteRefusal("GET", "/api/user/logout", lookup({ ...own, "sec-fetch-site": "cross-site" }), false),
    ).toBeDefined();
    expect(
      crossSiteRefusal("GET", "/api/user/logout", lookup({ ...own, "sec-fetch-site": "same-origin" }), false),
    ).toBeUndefined();
  });
});
