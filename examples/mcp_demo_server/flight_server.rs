//! A small MCP server speaking the real protocol (rmcp), offering the MCP Apps "dynamic
//! view content" flight example with an A2UI v0.9 surface:
//!
//! - `search_flights` (model-visible): a text fallback plus, when the client advertised
//!   `application/a2ui+json`, a marked A2UI payload: a list of flights with a "Select"
//!   button each (action `select_flight`, context `{flightId}`).
//! - `select_flight` (app-only, `visibility: ["app"]`): an incremental update
//!   (`updateDataModel` + `updateComponents`) showing a confirmation, or `isError` for an
//!   unknown flight.
//!
//! Every `tools/call` it receives is recorded, so a test can check what went over the wire.

use std::sync::{Arc, Mutex};

use egui_a2ui::mcp::{UiExtensionSettings, view_content_block};
use egui_a2ui::protocol::{BASIC_CATALOG_V0_9, MIME_TYPE};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorData, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};
use serde_json::{Value, json};

/// The View resource the flight tools are linked to.
pub const RENDERER_URI: &str = "ui://flights/renderer";

/// One flight on offer.
pub struct Flight {
    /// Flight id (what `select_flight` takes).
    pub id: &'static str,
    /// Display label.
    pub label: &'static str,
    /// Display price.
    pub price: &'static str,
}

/// The flights every search returns.
pub const FLIGHTS: &[Flight] = &[
    Flight {
        id: "UA954",
        label: "UA954 TLV→SFO 10:40",
        price: "$1,240",
    },
    Flight {
        id: "LY005",
        label: "LY005 TLV→SFO 23:55",
        price: "$1,410",
    },
    Flight {
        id: "DL235",
        label: "DL235 TLV→SFO 16:05",
        price: "$1,305",
    },
];

/// A `tools/call` as the server received it.
#[derive(Clone, Debug)]
pub struct ReceivedCall {
    /// `params.name`.
    pub name: String,
    /// `params.arguments`.
    pub arguments: Value,
    /// `params._meta`, as JSON (`null` when absent).
    pub meta: Value,
}

/// The flight server.
#[derive(Clone, Default)]
pub struct FlightServer {
    /// Every `tools/call` received, in order.
    pub received: Arc<Mutex<Vec<ReceivedCall>>>,
}

fn tool_error(message: &str) -> ErrorData {
    ErrorData::internal_error(message.to_owned(), None)
}

fn result(v: Value) -> Result<CallToolResponse, ErrorData> {
    serde_json::from_value::<CallToolResult>(v)
        .map(CallToolResponse::from)
        .map_err(|e| tool_error(&e.to_string()))
}

fn payload_block(uri: &str, messages: &Value) -> Result<Value, ErrorData> {
    view_content_block(uri, MIME_TYPE, &messages.to_string(), None)
        .map_err(|e| tool_error(&e.to_string()))
}

/// The A2UI messages of a search result: the flights surface.
pub fn search_payload(destination: &str) -> Value {
    let flights: Vec<Value> = FLIGHTS
        .iter()
        .map(|f| json!({"id": f.id, "label": f.label, "price": f.price}))
        .collect();
    json!([
        {"version": "v0.9", "createSurface": {
            "surfaceId": "flights", "catalogId": BASIC_CATALOG_V0_9, "sendDataModel": true}},
        {"version": "v0.9", "updateDataModel": {
            "surfaceId": "flights", "path": "/",
            "value": {"destination": destination, "flights": flights}}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "flights", "components": [
            {"id": "root", "component": "Column", "children": ["title", "list", "status"]},
            {"id": "title", "component": "Text", "variant": "h2", "text": {"path": "/destination"}},
            {"id": "list", "component": "List",
             "children": {"componentId": "flight_row", "path": "/flights"}},
            {"id": "flight_row", "component": "Row",
             "children": ["flight_label", "flight_price", "select_button"]},
            {"id": "flight_label", "component": "Text", "text": {"path": "label"}},
            {"id": "flight_price", "component": "Text", "text": {"path": "price"}},
            {"id": "select_button", "component": "Button", "child": "select_label",
             "action": {"event": {"name": "select_flight",
                                  "context": {"flightId": {"path": "id"}}}}},
            {"id": "select_label", "component": "Text", "text": "Select"},
            {"id": "status", "component": "Text", "text": "Pick a flight."}
        ]}}
    ])
}

/// The A2UI messages of a selection: an incremental update of the flights surface.
pub fn select_payload(flight: &Flight) -> Value {
    json!([
        {"version": "v0.9", "updateDataModel": {
            "surfaceId": "flights", "path": "/selected",
            "value": {"id": flight.id, "confirmation":
                      format!("Booked {} for {}.", flight.label, flight.price)}}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "flights", "components": [
            {"id": "root", "component": "Column", "children": ["title", "confirmation"]},
            {"id": "confirmation", "component": "Text", "text": {"path": "/selected/confirmation"}}
        ]}}
    ])
}

/// Whether the client advertised native A2UI, at `initialize` or in this request's `_meta`.
/// The request's `_meta`: rmcp hands it over in the context (and may leave it in params).
pub fn request_meta(
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Value {
    let mut meta = serde_json::to_value(&context.meta).unwrap_or(Value::Null);
    if let (Value::Object(m), Ok(Value::Object(p))) =
        (&mut meta, serde_json::to_value(&request.meta))
    {
        m.extend(p);
    }
    meta
}

/// Whether the client advertised native A2UI, at `initialize` or in this request's `_meta`.
pub fn client_renders_a2ui(context: &RequestContext<RoleServer>, request_meta: &Value) -> bool {
    let from_init = context.peer.peer_info().and_then(|info| {
        let caps = serde_json::to_value(&info.capabilities).ok()?;
        UiExtensionSettings::from_client_capabilities(&caps)
    });
    let from_meta = UiExtensionSettings::from_request_meta(request_meta);
    from_init
        .into_iter()
        .chain(from_meta)
        .any(|s| s.supports_native_a2ui())
}

impl ServerHandler for FlightServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        serde_json::from_value(json!({"tools": [
            {"name": "search_flights", "title": "Search Flights",
             "description": "Search for flights to a destination and present the options.",
             "inputSchema": {"type": "object",
                             "properties": {"destination": {"type": "string"}}},
             "_meta": {"ui": {"resourceUri": RENDERER_URI}}},
            {"name": "select_flight", "title": "Select Flight",
             "description": "Select a flight from previously presented options.",
             "inputSchema": {"type": "object",
                             "properties": {"flightId": {"type": "string"}},
                             "required": ["flightId"]},
             "_meta": {"ui": {"resourceUri": RENDERER_URI, "visibility": ["app"]}}}
        ]}))
        .map_err(|e| tool_error(&e.to_string()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = Value::Object(request.arguments.clone().unwrap_or_default());
        let meta = request_meta(&request, &context);
        if let Ok(mut r) = self.received.lock() {
            r.push(ReceivedCall {
                name: request.name.to_string(),
                arguments: arguments.clone(),
                meta: meta.clone(),
            });
        }
        match request.name.as_ref() {
            "search_flights" => {
                let dest = arguments
                    .get("destination")
                    .and_then(Value::as_str)
                    .unwrap_or("anywhere");
                let text = format!(
                    "Found {} flights to {dest}. Best: {}, {}.",
                    FLIGHTS.len(),
                    FLIGHTS[0].id,
                    FLIGHTS[0].price
                );
                let mut content = vec![json!({"type": "text", "text": text})];
                if client_renders_a2ui(&context, &meta) {
                    content.push(payload_block(
                        &format!("a2ui://flights/search/{dest}"),
                        &search_payload(dest),
                    )?);
                }
                result(json!({"content": content}))
            }
            "select_flight" => {
                let id = arguments.get("flightId").and_then(Value::as_str);
                match FLIGHTS.iter().find(|f| Some(f.id) == id) {
                    None => result(json!({"isError": true, "content": [
                        {"type": "text", "text": format!("Unknown flight {}.", id.unwrap_or("(none)"))}]})),
                    Some(f) => result(json!({"content": [
                        {"type": "text", "text": format!("Booked {}.", f.id)},
                        payload_block(&format!("a2ui://flights/select/{}", f.id),
                                      &select_payload(f))?
                    ]})),
                }
            }
            other => Err(ErrorData::invalid_params(
                format!("unknown tool {other}"),
                None,
            )),
        }
    }
}
