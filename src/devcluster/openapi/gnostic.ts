/**
 * The protobuf schema of /openapi/v2 as kube-apiserver serves it to kubectl: gnostic's
 * `openapi.v2` package (openapiv2/OpenAPIv2.proto), which client-go decodes the document with.
 * Only the messages a devcluster document uses are described, with gnostic's names, field
 * numbers and types, so this table can be checked against the .proto line by line; fields and
 * messages left out are ones the devcluster never writes (file schemas, form and header
 * parameters, headers, OAuth2, XML, contact and license).
 *
 * Notation: `name=number[:type]`; the type is `string` when left out, a `*` before it makes the
 * field repeated, a `|` after the field puts it in the message's one `oneof`.
 */
import { create, createFileRegistry, type DescMessage, type MessageInitShape } from "@bufbuild/protobuf";
import {
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  type FieldDescriptorProtoSchema,
  FileDescriptorProtoSchema,
  file_google_protobuf_any,
} from "@bufbuild/protobuf/wkt";

const VALIDATIONS = (first: number) =>
  [
    "maximum:double",
    "exclusive_maximum:bool",
    "minimum:double",
    "exclusive_minimum:bool",
    "max_length:int64",
    "min_length:int64",
    "pattern",
    "max_items:int64",
    "min_items:int64",
    "unique_items:bool",
    "enum:*Any",
    "multiple_of:double",
    "vendor_extension:*NamedAny",
  ]
    .map((f, i) => {
      const [name, type] = f.split(":");
      return `${name}=${first + i}${type ? `:${type}` : ""}`;
    })
    .join(" ");

const MESSAGES: Record<string, string> = {
  AdditionalPropertiesItem: "schema=1:Schema| boolean=2:bool|",
  Any: "value=1:.google.protobuf.Any yaml=2",
  ApiKeySecurity: "type=1 name=2 in=3 description=4 vendor_extension=5:*NamedAny",
  BasicAuthenticationSecurity: "type=1 description=2 vendor_extension=3:*NamedAny",
  BodyParameter: "description=1 name=2 in=3 required=4:bool schema=5:Schema vendor_extension=6:*NamedAny",
  Definitions: "additional_properties=1:*NamedSchema",
  Document:
    "swagger=1 info=2:Info host=3 base_path=4 schemes=5:*string consumes=6:*string " +
    "produces=7:*string paths=8:Paths definitions=9:Definitions parameters=10:ParameterDefinitions " +
    "responses=11:ResponseDefinitions security=12:*SecurityRequirement " +
    "security_definitions=13:SecurityDefinitions tags=14:*Tag external_docs=15:ExternalDocs " +
    "vendor_extension=16:*NamedAny",
  ExternalDocs: "description=1 url=2 vendor_extension=3:*NamedAny",
  Info: "title=1 version=2 description=3 terms_of_service=4 vendor_extension=7:*NamedAny",
  ItemsItem: "schema=1:*Schema",
  JsonReference: "_ref=1 description=2",
  NamedAny: "name=1 value=2:Any",
  NamedParameter: "name=1 value=2:Parameter",
  NamedPathItem: "name=1 value=2:PathItem",
  NamedResponse: "name=1 value=2:Response",
  NamedResponseValue: "name=1 value=2:ResponseValue",
  NamedSchema: "name=1 value=2:Schema",
  NamedSecurityDefinitionsItem: "name=1 value=2:SecurityDefinitionsItem",
  NamedStringArray: "name=1 value=2:StringArray",
  NonBodyParameter:
    "query_parameter_sub_schema=3:QueryParameterSubSchema| path_parameter_sub_schema=4:PathParameterSubSchema|",
  Operation:
    "tags=1:*string summary=2 description=3 external_docs=4:ExternalDocs operation_id=5 " +
    "produces=6:*string consumes=7:*string parameters=8:*ParametersItem responses=9:Responses " +
    "schemes=10:*string deprecated=11:bool security=12:*SecurityRequirement vendor_extension=13:*NamedAny",
  Parameter: "body_parameter=1:BodyParameter| non_body_parameter=2:NonBodyParameter|",
  ParameterDefinitions: "additional_properties=1:*NamedParameter",
  ParametersItem: "parameter=1:Parameter| json_reference=2:JsonReference|",
  PathItem:
    "_ref=1 get=2:Operation put=3:Operation post=4:Operation delete=5:Operation " +
    "options=6:Operation head=7:Operation patch=8:Operation parameters=9:*ParametersItem " +
    "vendor_extension=10:*NamedAny",
  PathParameterSubSchema: `required=1:bool in=2 description=3 name=4 type=5 format=6 items=7:PrimitivesItems collection_format=8 default=9:Any ${VALIDATIONS(10)}`,
  Paths: "vendor_extension=1:*NamedAny path=2:*NamedPathItem",
  PrimitivesItems: `type=1 format=2 items=3:PrimitivesItems collection_format=4 default=5:Any ${VALIDATIONS(6)}`,
  Properties: "additional_properties=1:*NamedSchema",
  QueryParameterSubSchema: `required=1:bool in=2 description=3 name=4 allow_empty_value=5:bool type=6 format=7 items=8:PrimitivesItems collection_format=9 default=10:Any ${VALIDATIONS(11)}`,
  Response: "description=1 schema=2:SchemaItem vendor_extension=5:*NamedAny",
  ResponseDefinitions: "additional_properties=1:*NamedResponse",
  ResponseValue: "response=1:Response| json_reference=2:JsonReference|",
  Responses: "response_code=1:*NamedResponseValue vendor_extension=2:*NamedAny",
  Schema:
    "_ref=1 format=2 title=3 description=4 default=5:Any multiple_of=6:double maximum=7:double " +
    "exclusive_maximum=8:bool minimum=9:double exclusive_minimum=10:bool max_length=11:int64 " +
    "min_length=12:int64 pattern=13 max_items=14:int64 min_items=15:int64 unique_items=16:bool " +
    "max_properties=17:int64 min_properties=18:int64 required=19:*string enum=20:*Any " +
    "additional_properties=21:AdditionalPropertiesItem type=22:TypeItem items=23:ItemsItem " +
    "all_of=24:*Schema properties=25:Properties discriminator=26 read_only=27:bool " +
    "external_docs=29:ExternalDocs example=30:Any vendor_extension=31:*NamedAny",
  SchemaItem: "schema=1:Schema|",
  SecurityDefinitions: "additional_properties=1:*NamedSecurityDefinitionsItem",
  SecurityDefinitionsItem:
    "basic_authentication_security=1:BasicAuthenticationSecurity| api_key_security=2:ApiKeySecurity|",
  SecurityRequirement: "additional_properties=1:*NamedStringArray",
  StringArray: "value=1:*string",
  Tag: "name=1 description=2 external_docs=3:ExternalDocs vendor_extension=4:*NamedAny",
  TypeItem: "value=1:*string",
};

const SCALARS: Record<string, FieldDescriptorProto_Type> = {
  string: FieldDescriptorProto_Type.STRING,
  bool: FieldDescriptorProto_Type.BOOL,
  double: FieldDescriptorProto_Type.DOUBLE,
  int64: FieldDescriptorProto_Type.INT64,
};

type FieldInit = MessageInitShape<typeof FieldDescriptorProtoSchema>;

function field(spec: string): FieldInit {
  const inOneof = spec.endsWith("|");
  const [head, rawType = "string"] = spec.replace(/\|$/, "").split(":") as [string, string?];
  const [name, number] = head.split("=") as [string, string];
  const repeated = rawType.startsWith("*");
  const type = repeated ? rawType.slice(1) : rawType;
  const init: FieldInit = {
    name,
    number: Number(number),
    label: repeated ? FieldDescriptorProto_Label.REPEATED : FieldDescriptorProto_Label.OPTIONAL,
    type: SCALARS[type] ?? FieldDescriptorProto_Type.MESSAGE,
  };
  if (!(type in SCALARS)) init.typeName = type.startsWith(".") ? type : `.openapi.v2.${type}`;
  if (inOneof) init.oneofIndex = 0;
  return init;
}

const file = create(FileDescriptorProtoSchema, {
  name: "openapiv2/OpenAPIv2.proto",
  package: "openapi.v2",
  syntax: "proto3",
  dependency: ["google/protobuf/any.proto"],
  messageType: Object.entries(MESSAGES).map(([name, fields]) => {
    const list = fields.split(" ").map(field);
    return {
      name,
      field: list,
      oneofDecl: list.some((f) => f.oneofIndex !== undefined) ? [{ name: "oneof" }] : [],
    };
  }),
});

const registry = createFileRegistry(file, (name) =>
  name === "google/protobuf/any.proto" ? file_google_protobuf_any : undefined,
);

/** A message of the `openapi.v2` package by its short name (`Document`, `Schema`, ...). */
export function gnosticMessage(name: string): DescMessage {
  const message = registry.getMessage(`openapi.v2.${name}`);
  if (!message) throw new Error(`openapi.v2.${name} is not described`);
  return message;
}
